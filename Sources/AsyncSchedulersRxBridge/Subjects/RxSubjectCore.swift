import AsyncSchedulers
import AsyncSignals
import Synchronization

/// What the Rx subjects share: a native replaying subject, the end once it came, whether the subject
/// was disposed, and how many observers it has.
///
/// Inlinable, with the subjects' sends, so that a subject of a concrete element type runs specialized
/// code (unspecialized, an event cost microseconds of generic metadata lookups).
@usableFromInline final class RxSubjectCore<Element: Sendable>: Sendable {
  @usableFromInline struct State {
    @usableFromInline var terminal: Event<Element>?
    @usableFromInline var disposed = false
    @usableFromInline var observers = 0
    @inlinable init() {}
  }

  @usableFromInline let subject: ReplaySignalSubject<Element, any Error>
  @usableFromInline let state = Mutex(State())
  /// Whether a subscriber after the end gets only the end (Publish, Behavior, Async subjects) or the
  /// replay and the end (ReplaySubject).
  @usableFromInline let replaysAfterEnd: Bool

  @inlinable init(subject: ReplaySignalSubject<Element, any Error>, replaysAfterEnd: Bool) {
    self.subject = subject
    self.replaysAfterEnd = replaysAfterEnd
  }

  /// Sends `event` to the current observers; ignored after the end or disposal.
  @inlinable func on(_ event: Event<Element>) {
    let accepted = state.withCriticalRegion { state -> Bool in
      guard state.terminal == nil, !state.disposed else { return false }
      if event.isStopEvent { state.terminal = event }
      return true
    }
    guard accepted else { return }
    switch event {
    case .next(let value): subject.send(value)
    case .error(let error): subject.fail(error)
    case .completed: subject.finish()
    }
  }

  /// The latest value, or the error that ended the subject; `RxError.disposed` once disposed.
  func latestValue(owner: AnyObject) throws -> Element? {
    let (terminal, disposed) = state.withCriticalRegion { ($0.terminal, $0.disposed) }
    if disposed { throw RxError.disposed(object: owner) }
    if case .error(let error) = terminal { throw error }
    return subject.latestValue
  }

  var hasObservers: Bool { state.withCriticalRegion { $0.observers > 0 } }

  var isDisposed: Bool { state.withCriticalRegion { $0.disposed } }

  func dispose() {
    state.withCriticalRegion { $0.disposed = true }
  }

  /// The subject as a signal: the replay and the live events; after the end, the end (with the replay
  /// if `replaysAfterEnd`); after disposal, `RxError.disposed`.
  @inlinable func signal(owner: AnyObject) -> Signal<Element, any Error> {
    let ownerReference = WeakReference(owner)
    return Signal { observer in
      let (terminal, disposed) = self.state.withCriticalRegion { state -> (Event<Element>?, Bool) in
        if state.terminal == nil && !state.disposed { state.observers += 1 }
        return (state.terminal, state.disposed)
      }
      if disposed {
        observer.fail(RxError.disposed(object: ownerReference.object ?? self))
        return nil
      }
      if let terminal, !self.replaysAfterEnd {
        observer.send(terminal.nativeEvent)
        return nil
      }
      let subscription = self.subject.signal.subscribe { observer.send($0) }
      guard terminal == nil else { return subscription }
      return Disposables.create(
        subscription, Disposables.create { self.state.withCriticalRegion { $0.observers -= 1 } })
    }
  }
}
