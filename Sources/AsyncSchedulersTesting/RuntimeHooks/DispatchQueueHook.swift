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
/// (the rules are `ScopeDispatch`'s and, for timer sources, `ScopeTimerSources`').
///
/// Swift code reaches Dispatch through the overlay library (`libswiftDispatch`), which calls
/// `dispatch_after`, `dispatch_async`, `dispatch_group_async`, `dispatch_group_notify`,
/// `dispatch_time`, `dispatch_source_create`, `dispatch_source_set_timer`,
/// `dispatch_source_set_event_handler`, `dispatch_source_cancel`, `dispatch_suspend`, `dispatch_resume`
/// and `dispatch_activate` through its procedure linkage table (see
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
  typealias SourceCreate = @convention(c) (OpaquePointer?, UInt, UInt, OpaquePointer?) -> OpaquePointer?
  /// The handler may be `NULL`, but typed as a block (not an optional one, whose metadata the Linux
  /// runtime cannot build): checked for null before it is kept (keeping it copies the block).
  typealias SetHandler = @convention(c) (OpaquePointer?, @escaping Block) -> Void
  typealias GlobalQueue = @convention(c) (Int, UInt) -> OpaquePointer?

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
  private static let createSlot = LibraryImportSlot(
    importing: "dispatch_source_create", inLibraryExporting: overlay)
  private static let setHandlerSlot = LibraryImportSlot(
    importing: "dispatch_source_set_event_handler", inLibraryExporting: overlay)
  private static let cancelSlot = LibraryImportSlot(importing: "dispatch_source_cancel", inLibraryExporting: overlay)
  private static let suspendSlot = LibraryImportSlot(importing: "dispatch_suspend", inLibraryExporting: overlay)
  private static let resumeSlot = LibraryImportSlot(importing: "dispatch_resume", inLibraryExporting: overlay)
  private static let activateSlot = LibraryImportSlot(importing: "dispatch_activate", inLibraryExporting: overlay)
  private static var slots: [LibraryImportSlot] {
    [
      afterSlot, asyncSlot, groupAsyncSlot, groupNotifySlot, timeSlot, setTimerSlot, createSlot, setHandlerSlot,
      cancelSlot, suspendSlot, resumeSlot, activateSlot,
    ]
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
        let real = unsafeBitCast(DispatchQueueHook.setTimerSlot.realFunction, to: SetTimer.self)
        if let entry = ScopeTimerSources.source(source) {
          // On the virtual clock, the real source stays unarmed (it may have been armed from outside).
          let virtual = ScopeTimerSources.schedule(entry, start: start, interval: interval)
          return virtual ? real(source, .max, .max, leeway) : real(source, start, interval, leeway)
        }
        real(source, ScopeDispatch.sourceTimerStart(start) ?? start, interval, leeway)
      }
      setTimerSlot.redirect(to: unsafeBitCast(setTimer, to: UInt.self))
      installSourceHooks()
    #endif
  }

  /// The timer sources' lifecycle calls: each reaches the real function, and a registered source's
  /// virtual state follows it.
  private static func installSourceHooks() {
    let create: SourceCreate = { type, handle, mask, queue in
      let source = unsafeBitCast(DispatchQueueHook.createSlot.realFunction, to: SourceCreate.self)(
        type, handle, mask, queue)
      if type.map({ UInt(bitPattern: UnsafeRawPointer($0)) }) == DispatchQueueHook.timerSourceType {
        ScopeTimerSources.created(source, queue: queue)
      }
      return source
    }
    createSlot.redirect(to: unsafeBitCast(create, to: UInt.self))
    let setHandler: SetHandler = { source, handler in
      if let entry = ScopeTimerSources.source(source) {
        let isNull = unsafeBitCast(handler, to: UInt.self) == 0
        entry.setHandler(isNull ? nil : ScopeTimerSource.Handler(ScopeDispatch.HandedBlock(block: handler)))
      }
      unsafeBitCast(DispatchQueueHook.setHandlerSlot.realFunction, to: SetHandler.self)(source, handler)
    }
    setHandlerSlot.redirect(to: unsafeBitCast(setHandler, to: UInt.self))
    let cancel: ObjectCall = { source in
      if let entry = ScopeTimerSources.source(source) { ScopeTimerSources.cancelled(entry) }
      unsafeBitCast(DispatchQueueHook.cancelSlot.realFunction, to: ObjectCall.self)(source)
    }
    cancelSlot.redirect(to: unsafeBitCast(cancel, to: UInt.self))
    let suspend: ObjectCall = { object in
      ScopeTimerSources.source(object)?.suspend()
      unsafeBitCast(DispatchQueueHook.suspendSlot.realFunction, to: ObjectCall.self)(object)
    }
    suspendSlot.redirect(to: unsafeBitCast(suspend, to: UInt.self))
    let resume: ObjectCall = { object in
      unsafeBitCast(DispatchQueueHook.resumeSlot.realFunction, to: ObjectCall.self)(object)
      ScopeTimerSources.source(object)?.resume()
    }
    resumeSlot.redirect(to: unsafeBitCast(resume, to: UInt.self))
    let activate: ObjectCall = { object in
      unsafeBitCast(DispatchQueueHook.activateSlot.realFunction, to: ObjectCall.self)(object)
      ScopeTimerSources.source(object)?.activate()
    }
    activateSlot.redirect(to: unsafeBitCast(activate, to: UInt.self))
  }

  /// Puts back the overlay's real calls.
  static func uninstall() {
    for slot in slots { slot.restore() }
  }

  /// Submits `block` to `queue` with the real `dispatch_async`.
  static func realAsync(_ queue: OpaquePointer?, _ block: @escaping Block) {
    unsafeBitCast(asyncSlot.realFunction, to: Async.self)(queue, block)
  }

  /// The default-priority global queue: where a source made with no queue runs its handler.
  static var defaultGlobalQueue: OpaquePointer? { globalQueue?(0, 0) }

  /// `DISPATCH_SOURCE_TYPE_TIMER`: the address `dispatch_source_create` is given for a timer source.
  private static let timerSourceType = UInt(bitPattern: RuntimeSymbols.address(of: "_dispatch_source_type_timer"))

  private static let globalQueue = RuntimeSymbols.address(of: "dispatch_get_global_queue").map {
    unsafeBitCast($0, to: GlobalQueue.self)
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
