import AsyncSchedulers
import Foundation
import Synchronization

/// `+[RACScheduler immediateScheduler]`: runs blocks inline and returns `nil`; `after:` blocks the
/// caller until the date; repeating is a precondition failure; recursion is a loop (no stack growth).
/// It does not set the current scheduler: blocks see the caller's.
final class RACImmediateScheduler: RACScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: no stored state of its own.
  static let shared = RACImmediateScheduler()

  private init() {
    super.init(core: ImmediateScheduler.shared, name: "org.reactivecocoa.ReactiveObjC.RACScheduler.immediateScheduler")
  }

  override func schedule(_ block: @escaping @Sendable () -> Void) -> RACDisposable? {
    block()
    return nil
  }

  override func after(_ date: Date, schedule block: @escaping @Sendable () -> Void) -> RACDisposable? {
    core.schedule(at: instant(for: date), leeway: .zero, block)
    return nil
  }

  override func after(
    _ date: Date, repeatingEvery interval: TimeInterval, withLeeway leeway: TimeInterval,
    schedule block: @escaping @Sendable () -> Void
  ) -> RACDisposable? {
    preconditionFailure("+[RACScheduler immediateScheduler] does not support after:repeatingEvery:withLeeway:schedule:")
  }

  override func scheduleRecursiveBlock(
    _ block: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
  ) -> RACDisposable? {
    let remaining = Atomic<Int>(1)
    while remaining.load(ordering: .relaxed) > 0 {
      remaining.wrappingSubtract(1, ordering: .relaxed)
      block { remaining.wrappingAdd(1, ordering: .relaxed) }
    }
    return nil
  }
}

/// RAC's private `+subscriptionScheduler`.
final class RACSubscriptionScheduler: RACScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: `background` is a `let` of a Sendable type.
  static let shared = RACSubscriptionScheduler()
  private let background: RACScheduler

  private init() {
    let background = RACScheduler()
    self.background = background
    super.init(core: background.core, name: "org.reactivecocoa.ReactiveObjC.RACScheduler.subscriptionScheduler")
    // Blocks running on the background scheduler must see it, not this one, as current.
    RACScheduler.register(background)
  }

  override func schedule(_ block: @escaping @Sendable () -> Void) -> RACDisposable? {
    guard RACScheduler.current() != nil else { return background.schedule(block) }
    block()
    return nil
  }

  override func after(_ date: Date, schedule block: @escaping @Sendable () -> Void) -> RACDisposable? {
    (RACScheduler.current() ?? background).after(date, schedule: block)
  }

  override func after(
    _ date: Date, repeatingEvery interval: TimeInterval, withLeeway leeway: TimeInterval,
    schedule block: @escaping @Sendable () -> Void
  ) -> RACDisposable? {
    (RACScheduler.current() ?? background).after(date, repeatingEvery: interval, withLeeway: leeway, schedule: block)
  }
}
