import Synchronization

/// The shared count behind one `refCount()` (RxSwift's semantics): the first observer connects the
/// source, the last one to leave disposes the connection; when the source ends, the count starts again
/// from zero, so observers of an ended connection leaving later change nothing.
final class RefCounting<Source: ConnectableObservableType>: @unchecked Sendable {
  // Why @unchecked Sendable: `source` is only subscribed and connected, which RxSwift's contract makes
  // safe from any thread (the bridge's connectables are `Sendable`; a custom one, which need not declare
  // it, is used as RxSwift uses it); the count is under `state`'s lock.
  private let source: Source

  private struct State {
    var count = 0
    /// Which connection the count belongs to: bumped when the source ends.
    var generation: UInt64 = 0
    var connection: SingleAssignmentDisposable?
  }

  private let state = Mutex(State())

  /// What a new observer found.
  private enum Joined {
    case endedAtOnce
    case counted
    case connect(SingleAssignmentDisposable)
  }

  init(_ source: Source) { self.source = source }

  /// Subscribes `observer`, connecting the source if it is the first.
  func subscribe(_ observer: AnyObserver<Source.Element>) -> any Disposable {
    /// The generation this observer counted in (`.max` until it counted).
    let counted = Atomic<UInt64>(.max)
    let ended = Atomic<Bool>(false)
    let subscription = source.subscribe(
      AnyObserver { [self] event in
        if event.isStopEvent {
          ended.store(true, ordering: .releasing)
          let connection = state.withCriticalRegion { state -> SingleAssignmentDisposable? in
            guard state.generation == counted.load(ordering: .acquiring) else { return nil }
            state.count = 0
            state.generation &+= 1
            defer { state.connection = nil }
            return state.connection
          }
          connection?.dispose()
        }
        observer.on(event)
      })
    let joined = state.withCriticalRegion { state -> Joined in
      // The subject ended the observer while it subscribed: it neither counts nor connects.
      if ended.load(ordering: .acquiring) { return .endedAtOnce }
      counted.store(state.generation, ordering: .releasing)
      state.count += 1
      guard state.count == 1 else { return .counted }
      let connection = SingleAssignmentDisposable()
      state.connection = connection
      return .connect(connection)
    }
    switch joined {
    case .endedAtOnce: return subscription
    case .counted: break
    case .connect(let connection): connection.setDisposable(source.connect())
    }
    return Disposables.create { [self] in
      subscription.dispose()
      let last = state.withCriticalRegion { state -> SingleAssignmentDisposable? in
        guard state.generation == counted.load(ordering: .acquiring), state.count > 0 else { return nil }
        state.count -= 1
        guard state.count == 0 else { return nil }
        defer { state.connection = nil }
        return state.connection
      }
      last?.dispose()
    }
  }
}
