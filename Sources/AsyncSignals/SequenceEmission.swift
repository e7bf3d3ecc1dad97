import AsyncSchedulers
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One subscription of `Signal(_:on:)`: the storage of ``SequenceEmissionStateMachine``. It takes each
/// event's action under its lock and performs it (schedules, sends, disposes) after releasing it.
final class SequenceEmission<Element: Sendable, Failure: Error>: Disposable, Sendable {
  private let machine = Mutex(SequenceEmissionStateMachine())
  /// Touched only by the current emitter: one job at a time, each scheduled by the previous one.
  private let iterator: SubscriptionState<any IteratorProtocol<Element>>
  private let observer: SignalObserver<Element, Failure>
  private let scheduler: any Scheduler

  init(_ iterator: any IteratorProtocol<Element>, observer: SignalObserver<Element, Failure>, scheduler: any Scheduler)
  {
    self.iterator = SubscriptionState(iterator)
    self.observer = observer
    self.scheduler = scheduler
  }

  private static var currentThread: SequenceEmissionStateMachine.Thread {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Schedules jobs one after another; when one runs inline, sends its element here and goes on
  /// (iteration instead of recursion).
  func scheduleNext() {
    while true {
      let thread = Self.currentThread
      guard case .schedule(let job) = machine.withCriticalRegion({ $0.willSchedule(on: thread) }) else { return }
      let handle = scheduler.schedule { [self] in jobRan(job) }
      switch machine.withCriticalRegion({ $0.scheduled(job, handle: handle) }) {
      case .none: return
      case .dispose(let handle):
        handle.dispose()
        return
      case .emitHere:
        guard emitOne() else { return }
      }
    }
  }

  private func jobRan(_ job: UInt64) {
    let thread = Self.currentThread
    guard machine.withCriticalRegion({ $0.jobRan(job, on: thread) }) == .emit else { return }
    if emitOne() { scheduleNext() }
  }

  /// Sends the next element (then `true`), or finishes (then `false`); `false` too once terminated.
  private func emitOne() -> Bool {
    guard !observer.isTerminated, !machine.withCriticalRegion({ $0.isDisposed }) else { return false }
    guard let element = iterator.value.next() else {
      observer.finish()
      return false
    }
    observer.send(element)
    return true
  }

  /// Stops the emission before the next element; disposes the pending job.
  func dispose() {
    machine.withCriticalRegion { $0.dispose() }?.dispose()
  }

  /// Whether the subscription was disposed.
  var isDisposed: Bool { machine.withCriticalRegion { $0.isDisposed } }
}
