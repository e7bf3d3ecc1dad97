import AsyncSchedulers
import AsyncSignals
import Synchronization

/// The state of one `buffer(timeSpan:count:scheduler:)` subscription: the values of the current
/// window, sent when its timer fires or when `count` are collected (which starts a new window).
final class TimedBuffer<Element: Sendable>: Disposable {
  private struct State {
    var values: [Element] = []
    /// Bumped by each window, so a timer of an earlier one knows it is stale.
    var window: UInt64 = 0
    var timer: ScheduledAction?
    var ended = false
  }

  private let state = Mutex(State())
  private let core: any Scheduler
  private let span: Duration
  private let count: Int
  private let observer: SignalObserver<[Element], any Error>

  init(core: any Scheduler, span: Duration, count: Int, observer: SignalObserver<[Element], any Error>) {
    self.core = core
    self.span = span
    self.count = count
    self.observer = observer
  }

  /// Starts the next window's timer.
  func startWindow() {
    let window = state.withCriticalRegion { $0.window }
    let timer = core.schedule(after: span, leeway: .zero) { [self] in
      let batch = state.withCriticalRegion { state -> [Element]? in
        guard state.window == window, !state.ended else { return nil }
        state.window &+= 1
        defer { state.values = [] }
        return state.values
      }
      guard let batch else { return }
      observer.send(batch)
      startWindow()
    }
    let stale = state.withCriticalRegion { state -> ScheduledAction? in
      defer { state.timer = timer }
      return state.timer
    }
    stale?.dispose()
  }

  /// Handles an upstream event: collects a value (sending the window when full), or sends the last
  /// window (even empty, as RxSwift) and the end.
  func receive(_ event: SignalEvent<Element, any Error>) {
    switch event {
    case .next(let value):
      let full = state.withCriticalRegion { state -> [Element]? in
        guard !state.ended else { return nil }
        state.values.append(value)
        guard state.values.count == count else { return nil }
        state.window &+= 1
        defer { state.values = [] }
        return state.values
      }
      if let full {
        observer.send(full)
        startWindow()
      }
    case .failed(let error):
      dispose()
      observer.fail(error)
    case .finished:
      let last = state.withCriticalRegion { state -> [Element] in
        defer { state.values = [] }
        return state.values
      }
      dispose()
      observer.send(last)
      observer.finish()
    }
  }

  var isDisposed: Bool { state.withCriticalRegion { $0.ended } }

  func dispose() {
    let timer = state.withCriticalRegion { state -> ScheduledAction? in
      state.ended = true
      defer { state.timer = nil }
      return state.timer
    }
    timer?.dispose()
  }
}
