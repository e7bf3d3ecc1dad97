// App code as callback-era code writes it: a poller on a repeating `DispatchSource` timer, no import of
// swift-async-schedulers.
import Dispatch

/// Polls every `interval` seconds on a timer source until stopped.
public final class SourcePoller: @unchecked Sendable {
  // Why @unchecked Sendable: `timer` is set once in `start` and cancelled in `stop`; `onPoll` runs on
  // the poller's queue only.
  private var timer: (any DispatchSourceTimer)?
  private let queue = DispatchQueue(label: "poller")
  private let interval: Double
  private let onPoll: @Sendable () -> Void

  public init(interval: Double, onPoll: @escaping @Sendable () -> Void) {
    self.interval = interval
    self.onPoll = onPoll
  }

  public func start() {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [onPoll] in onPoll() }
    timer.resume()
    self.timer = timer
  }

  public func stop() { timer?.cancel() }
}
