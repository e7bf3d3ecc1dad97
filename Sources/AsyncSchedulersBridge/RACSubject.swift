import AsyncSchedulers
import AsyncSignals

/// ReactiveObjC's `RACSubject`: a signal you send to by hand, and a subscriber (`+subject`).
///
/// Multicasts to its current subscribers; subscribers arriving after the end get it at once. Sends are
/// thread-safe and handled one at a time, in order.
public class RACSubject<Value: Sendable>: RACSignal<Value>, RACSubscriber, @unchecked Sendable {
  // Why @unchecked Sendable: the only stored state is the `let` native subject (Sendable), plus the
  // base class's `let`.
  private let subject: ReplaySignalSubject<Value?, any Error>
  /// The subscriptions of this subject to other signals, disposed when it errors or completes.
  private let subscriptions = RACCompoundDisposable()

  /// A subject with no subscribers (`+subject`).
  public convenience init() { self.init(replaying: 0) }

  init(replaying capacity: Int, initial: Value?? = nil) {
    let subject =
      if let initial { ReplaySignalSubject<Value?, any Error>(capacity: 1, initialValue: initial) } else {
        ReplaySignalSubject<Value?, any Error>(capacity: capacity)
      }
    self.subject = subject
    super.init(subject.signal)
  }

  /// Sends a value to every subscriber (`-sendNext:`).
  public func sendNext(_ value: (any Sendable)?) { subject.send(racValue(value, as: Value.self, in: "RACSubject")) }

  /// Sends an error to every subscriber (`-sendError:`), after disposing the subject's subscriptions to
  /// other signals.
  public func sendError(_ error: (any Error)?) {
    subscriptions.dispose()
    subject.fail(error ?? RACNilError())
  }

  /// Completes every subscriber (`-sendCompleted`), after disposing the subject's subscriptions to
  /// other signals.
  public func sendCompleted() {
    subscriptions.dispose()
    subject.finish()
  }

  /// Keeps the subscription of this subject to a signal (`-didSubscribeWithDisposable:`): it is disposed
  /// when the subject errors or completes, at once if it already has, as in ReactiveObjC. A
  /// subscription that ends first leaves the subject's list.
  public func didSubscribe(with disposable: RACCompoundDisposable) {
    guard !disposable.isDisposed else { return }
    subscriptions.add(disposable)
    let subscriptions = self.subscriptions
    disposable.add(RACDisposable(block: { [weak disposable] in subscriptions.remove(disposable) }))
  }
}

/// ReactiveObjC's `RACReplaySubject`: a subject that replays up to `capacity` values (and the end) to
/// new subscribers (`+replaySubjectWithCapacity:`).
public final class RACReplaySubject<Value: Sendable>: RACSubject<Value>, @unchecked Sendable {
  // Why @unchecked Sendable: no stored state of its own.

  /// A subject replaying up to `capacity` values (`+replaySubjectWithCapacity:`).
  /// - Precondition: `capacity >= 0`.
  public init(capacity: Int) { super.init(replaying: capacity) }

  /// A subject replaying every value (`RACReplaySubjectUnlimitedCapacity`).
  public convenience init() { self.init(capacity: .max) }
}

/// ReactiveObjC's `RACBehaviorSubject`: a subject holding a current value, sent first to each new
/// subscriber (`+behaviorSubjectWithDefaultValue:`).
public final class RACBehaviorSubject<Value: Sendable>: RACSubject<Value>, @unchecked Sendable {
  // Why @unchecked Sendable: no stored state of its own.

  /// A subject whose current value is `defaultValue`.
  public init(defaultValue: Value?) { super.init(replaying: 1, initial: .some(defaultValue)) }
}
