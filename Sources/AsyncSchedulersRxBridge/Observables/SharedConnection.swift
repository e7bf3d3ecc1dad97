import AsyncSchedulers
import AsyncSignals
import Synchronization

/// `share(replay:scope: .whileConnected)` as RxSwift orders it: one subscription of the source shared by
/// the observers, through a subject made for that connection (so each connection replays only its own
/// values); the last observer leaving disconnects; and when the source ends, the connection is dropped
/// *before* the end reaches the observers, so an observer that subscribes again from its end handler
/// starts a new connection instead of joining the ended one.
///
/// All state is under one lock; subscribing the source, the subject and the observers, and disposing,
/// happen after it is released.
final class SharedConnection<Element>: Sendable {
  /// One connection: its subject and the source's subscription.
  private final class Connection: Sendable {
    let subject: ReplaySubject<Element>
    let subscription = SerialDisposable()
    init(replay: Int) { subject = .create(bufferSize: replay) }
  }

  private struct State {
    var connection: Connection?
    var observers = 0
  }

  private let source: Signal<RxElement<Element>, any Error>
  private let replay: Int
  private let state = Mutex(State())

  init(source: Signal<RxElement<Element>, any Error>, replay: Int) {
    self.source = source
    self.replay = replay
  }

  /// Subscribes `observer`, connecting the source if it is the first.
  func subscribe(_ observer: AnyObserver<Element>) -> any Disposable {
    let (connection, connects) = state.withCriticalRegion { state -> (Connection, Bool) in
      state.observers += 1
      if let connection = state.connection { return (connection, false) }
      let connection = Connection(replay: replay)
      state.connection = connection
      return (connection, true)
    }
    let subscription = connection.subject.subscribe(observer)
    if connects {
      connection.subscription.disposable = source.subscribe { [self] event in
        if event.isTerminal { drop(connection) }
        connection.subject.on(Event(event))
      }
    }
    return Disposables.create { [self] in
      subscription.dispose()
      let last = state.withCriticalRegion { state -> Bool in
        guard state.connection === connection else { return false }
        state.observers -= 1
        guard state.observers == 0 else { return false }
        state.connection = nil
        return true
      }
      if last { connection.subscription.dispose() }
    }
  }

  /// Forgets `connection` if it is still the current one (its source ended).
  private func drop(_ connection: Connection) {
    state.withCriticalRegion { state in
      guard state.connection === connection else { return }
      state.connection = nil
      state.observers = 0
    }
  }
}
