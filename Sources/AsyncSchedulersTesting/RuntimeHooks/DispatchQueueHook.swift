#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Dispatch overlay's own calls into `libdispatch`, redirected while at least one capturing scope
/// is active, so that the callback-era code of a scope (`DispatchQueue.asyncAfter`, `async`,
/// `DispatchGroup`, `DispatchTime.now()`, `DispatchSource` timers) runs on the scope's clock or holds it
/// (the rules are `ScopeDispatch`'s).
///
/// Swift code reaches Dispatch through the overlay library (`libswiftDispatch`), which calls
/// `dispatch_after`, `dispatch_async`, `dispatch_group_async`, `dispatch_group_notify`,
/// `dispatch_time` and `dispatch_source_set_timer` through its procedure linkage table (see
/// ``LibraryImportSlot``, found from the overlay's `DispatchTime.now()`). A call from a thread that
/// runs no scope's work reaches the real function after one thread-local read. Linux only: elsewhere
/// ``isAvailable`` is `false`, and the scopes' Dispatch work stays real.
enum DispatchQueueHook {
  typealias Block = @convention(block) () -> Void
  typealias After = @convention(c) (UInt64, OpaquePointer?, @escaping Block) -> Void
  typealias Async = @convention(c) (OpaquePointer?, @escaping Block) -> Void
  typealias GroupAsync = @convention(c) (OpaquePointer?, OpaquePointer?, @escaping Block) -> Void
  typealias Time = @convention(c) (UInt64, Int64) -> UInt64
  typealias SetTimer = @convention(c) (OpaquePointer?, UInt64, UInt64, UInt64) -> Void
  typealias ObjectCall = @convention(c) (OpaquePointer?) -> Void

  /// The overlay's `DispatchTime.now()`, exported by the library whose imports are redirected.
  private static let overlay = "$s8Dispatch0A4TimeV3nowACyFZ"
  private static let afterSlot = LibraryImportSlot(importing: "dispatch_after", inLibraryExporting: overlay)
  private static let asyncSlot = LibraryImportSlot(importing: "dispatch_async", inLibraryExporting: overlay)
  private static let groupAsyncSlot = LibraryImportSlot(importing: "dispatch_group_async", inLibraryExporting: overlay)
  private static let groupNotifySlot = LibraryImportSlot(
    importing: "dispatch_group_notify", inLibraryExporting: overlay)
  private static let timeSlot = LibraryImportSlot(importing: "dispatch_time", inLibraryExporting: overlay)
  private static let setTimerSlot = LibraryImportSlot(
    importing: "dispatch_source_set_timer", inLibraryExporting: overlay)
  private static var slots: [LibraryImportSlot] {
    [afterSlot, asyncSlot, groupAsyncSlot, groupNotifySlot, timeSlot, setTimerSlot]
  }

  /// Whether every slot was found (the overlay is loaded and imports them under these names).
  static var isAvailable: Bool {
    #if os(Linux)
      slots.allSatisfy(\.isAvailable)
    #else
      false
    #endif
  }

  /// Redirects the overlay's calls until ``uninstall()``. Called under the scopes' installation lock.
  static func install() {
    #if os(Linux)
      guard isAvailable else { return }
      let after: After = { when, queue, block in
        if ScopeDispatch.after(when, queue: queue, block) { return }
        unsafeBitCast(DispatchQueueHook.afterSlot.realFunction, to: After.self)(when, queue, block)
      }
      afterSlot.redirect(to: unsafeBitCast(after, to: UInt.self))
      let async: Async = { queue, block in
        if ScopeDispatch.async(queue: queue, block) { return }
        DispatchQueueHook.realAsync(queue, block)
      }
      asyncSlot.redirect(to: unsafeBitCast(async, to: UInt.self))
      let groupAsync: GroupAsync = { group, queue, block in
        let block = ScopeDispatch.groupAsync(queue: queue, block) ?? block
        unsafeBitCast(DispatchQueueHook.groupAsyncSlot.realFunction, to: GroupAsync.self)(group, queue, block)
      }
      groupAsyncSlot.redirect(to: unsafeBitCast(groupAsync, to: UInt.self))
      let groupNotify: GroupAsync = { group, queue, block in
        let block = ScopeDispatch.groupNotify(queue: queue, block) ?? block
        unsafeBitCast(DispatchQueueHook.groupNotifySlot.realFunction, to: GroupAsync.self)(group, queue, block)
      }
      groupNotifySlot.redirect(to: unsafeBitCast(groupNotify, to: UInt.self))
      let time: Time = { when, delta in
        if when == 0, let now = ScopeDispatch.uptimeNow(plus: delta) { return now }
        return unsafeBitCast(DispatchQueueHook.timeSlot.realFunction, to: Time.self)(when, delta)
      }
      timeSlot.redirect(to: unsafeBitCast(time, to: UInt.self))
      let setTimer: SetTimer = { source, start, interval, leeway in
        let start = ScopeDispatch.sourceTimerStart(start) ?? start
        unsafeBitCast(DispatchQueueHook.setTimerSlot.realFunction, to: SetTimer.self)(source, start, interval, leeway)
      }
      setTimerSlot.redirect(to: unsafeBitCast(setTimer, to: UInt.self))
    #endif
  }

  /// Puts back the overlay's real calls.
  static func uninstall() {
    for slot in slots { slot.restore() }
  }

  /// Submits `block` to `queue` with the real `dispatch_async`.
  static func realAsync(_ queue: OpaquePointer?, _ block: @escaping Block) {
    unsafeBitCast(asyncSlot.realFunction, to: Async.self)(queue, block)
  }

  /// Whether `queue` is the main queue.
  static func isMainQueue(_ queue: OpaquePointer?) -> Bool {
    UInt(bitPattern: queue.map { UnsafeRawPointer($0) }) == DispatchTimerHook.mainQueue
  }

  /// Keeps `queue` alive until ``release(_:)`` (a timer holds its queue, as `dispatch_after` does).
  static func retain(_ queue: OpaquePointer?) { dispatchRetain?(queue) }

  /// Releases a queue kept by ``retain(_:)``.
  static func release(_ queue: OpaquePointer?) { dispatchRelease?(queue) }

  private static let dispatchRetain = RuntimeSymbols.address(of: "dispatch_retain").map {
    unsafeBitCast($0, to: ObjectCall.self)
  }
  private static let dispatchRelease = RuntimeSymbols.address(of: "dispatch_release").map {
    unsafeBitCast($0, to: ObjectCall.self)
  }
}
