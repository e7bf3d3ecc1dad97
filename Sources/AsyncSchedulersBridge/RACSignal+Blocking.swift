import AsyncSchedulers
import AsyncSignals
import Dispatch
import Synchronization

/// ReactiveObjC's blocking accessors: they subscribe and block the calling thread until the signal
/// answers. Never call them on a thread the signal needs to send from (the main thread for a signal
/// delivered there, a scheduler's job for a signal of that scheduler): that deadlocks, as in
/// ReactiveObjC.
extension RACSignal {
  /// The first value, or `nil` if the signal completes or errors first; blocks until then (`-first`).
  public func first() -> Value? { firstOrDefault(nil).value }

  /// The first value, or `defaultValue` if the signal completes or errors first, with the error if it
  /// errored; blocks until then (`-firstOrDefault:success:error:`, with the two results returned).
  public func firstOrDefault(_ defaultValue: Value?) -> (value: Value?, error: (any Error)?) {
    let outcome = blockingOutcome(of: native.take(1))
    return (outcome.values.first ?? defaultValue, outcome.error)
  }

  /// Every value, once the signal completes, or `nil` if it errors; blocks until then (`-toArray`).
  public func toArray() -> [Value?]? {
    let outcome = blockingOutcome(of: native)
    return outcome.error == nil ? outcome.values : nil
  }

  /// Blocks until the signal completes; throws its error (`-waitUntilCompleted:`; RAC's `nil` error is
  /// thrown as ``RACSignalError/nilError``).
  public func waitUntilCompleted() throws {
    if let error = blockingOutcome(of: native.ignoreValues()).error {
      throw error is RACNilError ? RACSignalError.nilError : error
    }
  }

  private func blockingOutcome(of signal: Signal<Value?, any Error>) -> (values: [Value?], error: (any Error)?) {
    let done = DispatchSemaphore(value: 0)
    let outcome = BlockingOutcome<Value>()
    let subscription = signal.subscribe { event in
      switch event {
      case .next(let value): outcome.append(value)
      case .failed(let error):
        outcome.fail(error)
        done.signal()
      case .finished: done.signal()
      }
    }
    done.wait()
    subscription.dispose()
    return outcome.result
  }
}

/// The values and error a blocking accessor collects, written by the signal's sending thread.
private final class BlockingOutcome<Value: Sendable>: Sendable {
  private let state = Mutex<(values: [Value?], error: (any Error)?)>(([], nil))
  func append(_ value: Value?) { state.withCriticalRegion { $0.values.append(value) } }
  func fail(_ error: any Error) { state.withCriticalRegion { $0.error = error } }
  var result: (values: [Value?], error: (any Error)?) { state.withCriticalRegion { $0 } }
}

/// What ``RACSignal/waitUntilCompleted()`` throws when the signal errored with `nil` (ReactiveObjC
/// allowed a `nil` error; Swift's import of such a method throws a placeholder error too).
public enum RACSignalError: Error, Sendable {
  /// The signal sent `sendError(nil)`.
  case nilError
}
