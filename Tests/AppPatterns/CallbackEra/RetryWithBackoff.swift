// App code as callback-era code writes it: retry with exponential backoff on `asyncAfter`, no import
// of swift-async-schedulers.
import Dispatch

/// Calls `attempt` until it succeeds or `maximumAttempts` are spent, waiting `initialDelay`, then twice
/// as long each time, between attempts (on `queue`); `completion` gets the number of attempts made and
/// whether the last one succeeded.
public func retryWithBackoff(
  queue: DispatchQueue, initialDelay: Double, maximumAttempts: Int,
  attempt: @escaping @Sendable (Int) -> Bool, completion: @escaping @Sendable (Int, Bool) -> Void
) {
  @Sendable func run(_ number: Int, delay: Double) {
    if attempt(number) { return completion(number, true) }
    if number == maximumAttempts { return completion(number, false) }
    queue.asyncAfter(deadline: .now() + delay) { run(number + 1, delay: delay * 2) }
  }
  queue.async { run(1, delay: initialDelay) }
}
