import AsyncSchedulers
import Synchronization

// Operators written the way swift-async-algorithms writes them: an internal unstructured `Task {}`
// iterates upstream and `clock.sleep(until:)` waits on the clock they are given. None of these tasks
// prefers the clock's scheduler, which is the point: on a TestScheduler they escape unless the test
// captures them. Shared by the capture and escape tests and by the examples.

/// A value behind a lock that closures and tasks can share.
package final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>
  package init(_ value: Value) { mutex = Mutex(value) }
  package func withCriticalRegion<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result {
    mutex.withCriticalRegion(body)
  }
}

/// Values at given instants on `clock`, then the end of the stream, produced by an internal task.
package func timedValues(
  _ values: [(value: Int, at: Duration)], finishingAt end: Duration, clock: some Scheduler
) -> AsyncStream<Int> {
  AsyncStream { continuation in
    let producer = Task {
      let start = clock.now
      do {
        for (value, at) in values {
          try await clock.sleep(until: start.advanced(by: at), tolerance: nil)
          continuation.yield(value)
        }
        try await clock.sleep(until: start.advanced(by: end), tolerance: nil)
      } catch {}
      continuation.finish()
    }
    continuation.onTermination = { _ in producer.cancel() }
  }
}

private struct DebounceState<Element: Sendable>: Sendable {
  var generation = 0
  var pending: Element?
  var sleeper: Task<Void, Never>?
}

private struct ThrottleState<Element: Sendable>: Sendable {
  var windowOpen = false
  var latest: Element?
  var timer: Task<Void, Never>?
}

private struct MergeState: Sendable {
  var running = 2
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Emits a value once `interval` passes without a newer one; at the end, emits the pending value at
  /// once and finishes (swift-async-algorithms' `debounce`).
  package func debounced<C: Clock & Sendable>(for interval: C.Duration, clock: C) -> AsyncStream<Element> {
    AsyncStream { continuation in
      let state = Locked(DebounceState<Element>())
      let upstream = Task {
        for await value in self {
          let deadline = clock.now.advanced(by: interval)
          let generation = state.withCriticalRegion { state -> Int in
            state.generation += 1
            state.pending = value
            state.sleeper?.cancel()
            return state.generation
          }
          let sleeper = Task {
            do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
            let due = state.withCriticalRegion { state -> Element? in
              guard state.generation == generation else { return nil }
              defer { state.pending = nil }
              return state.pending
            }
            if let due { continuation.yield(due) }
          }
          state.withCriticalRegion { state in
            if state.generation == generation { state.sleeper = sleeper } else { sleeper.cancel() }
          }
        }
        let (sleeper, pending) = state.withCriticalRegion { state in
          state.generation += 1
          defer { state.pending = nil }
          return (state.sleeper, state.pending)
        }
        sleeper?.cancel()
        if let pending { continuation.yield(pending) }
        continuation.finish()
      }
      continuation.onTermination = { _ in upstream.cancel() }
    }
  }

  /// Emits the first value at once, then at the end of each `interval` window the latest value that
  /// arrived in it (if any); a window with nothing ends the throttling until the next value.
  package func throttledLatest<C: Clock & Sendable>(for interval: C.Duration, clock: C) -> AsyncStream<Element> {
    AsyncStream { continuation in
      let state = Locked(ThrottleState<Element>())
      let upstream = Task {
        for await value in self {
          let opensWindow = state.withCriticalRegion { state -> Bool in
            if state.windowOpen {
              state.latest = value
              return false
            }
            state.windowOpen = true
            return true
          }
          guard opensWindow else { continue }
          continuation.yield(value)
          var windowEnd = clock.now.advanced(by: interval)
          let timer = Task {
            while true {
              do { try await clock.sleep(until: windowEnd, tolerance: nil) } catch { return }
              let due = state.withCriticalRegion { state -> Element? in
                defer { state.latest = nil }
                if state.latest == nil { state.windowOpen = false }
                return state.latest
              }
              guard let due else { return }
              continuation.yield(due)
              windowEnd = windowEnd.advanced(by: interval)
            }
          }
          state.withCriticalRegion { $0.timer = timer }
        }
        let timer = state.withCriticalRegion { $0.timer }
        timer?.cancel()
        continuation.finish()
      }
      continuation.onTermination = { _ in upstream.cancel() }
    }
  }
}

/// A timer sequence: the instants `start + interval × k`, each after sleeping until it, in the
/// consumer's task (swift-async-algorithms' `AsyncTimerSequence`).
package struct TimerSequence<C: Clock & Sendable>: AsyncSequence, Sendable {
  let interval: C.Duration
  let clock: C

  package init(interval: C.Duration, clock: C) {
    self.interval = interval
    self.clock = clock
  }

  package struct AsyncIterator: AsyncIteratorProtocol {
    let interval: C.Duration
    let clock: C
    var last: C.Instant?

    package mutating func next() async -> C.Instant? {
      let next = (last ?? clock.now).advanced(by: interval)
      do { try await clock.sleep(until: next, tolerance: nil) } catch { return nil }
      last = next
      return clock.now
    }
  }

  package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(interval: interval, clock: clock, last: nil) }
}

/// Merges two sequences: one internal task iterates each and yields into the result, which ends when
/// both have (swift-async-algorithms' `merge`).
package func merged<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(_ a: A, _ b: B) -> AsyncStream<A.Element>
where A.Element == B.Element, A.Element: Sendable, A.Failure == Never, B.Failure == Never {
  AsyncStream { continuation in
    let state = Locked(MergeState())
    let finishOne: @Sendable () -> Void = {
      if state.withCriticalRegion({ state -> Bool in
        state.running -= 1
        return state.running == 0
      }) {
        continuation.finish()
      }
    }
    let first = Task {
      for await value in a { continuation.yield(value) }
      finishOne()
    }
    let second = Task {
      for await value in b { continuation.yield(value) }
      finishOne()
    }
    continuation.onTermination = { _ in
      first.cancel()
      second.cancel()
    }
  }
}
