import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Dispatch
import Testing

@testable import AsyncSchedulers

@Suite("Signal(_:on:) from a sequence")
struct SequenceSignalTests {
  private static func collect(_ signal: Signal<Int, Never>) -> (values: [Int], finished: Bool) {
    let log = Log<Int>()
    let finished = Log<Bool>()
    _ = signal.subscribe { event in
      switch event {
      case .next(let value): log.append(value)
      case .finished: finished.append(true)
      case .failed: break
      }
    }
    return (log.values, finished.values == [true])
  }

  @Test("On the immediate scheduler every element and the end arrive, in order, without recursing")
  func immediateSchedulerIterates() async {
    // A million (the old recursion overflowed the stack at about 50,000); fewer under
    // ThreadSanitizer (60,000), where a million held a core for minutes. Seconds of CPU: on a thread
    // of its own, not one of the cooperative pool's (see onModelThread).
    let count = ThreadSanitizerHooks.shared == nil ? 1_000_000 : 60_000
    let result = await onModelThread { Self.collect(Signal(0..<count, on: ImmediateScheduler())) }
    #expect(result.values.count == count)
    #expect(result.values.last == count - 1)
    #expect(result.finished)
  }

  @MainActor
  @Test("On a main-actor scheduler that runs inline when idle, every element and the end arrive")
  func inlineMainActorScheduler() {
    let result = Self.collect(Signal([1, 2, 3], on: MainActorScheduler(runsInlineWhenIdle: true)))
    #expect(result.values == [1, 2, 3])
    #expect(result.finished)
  }

  @Test("On a TestScheduler one element goes per job, and disposing stops it before the next")
  func oneElementPerJob() {
    let scheduler = TestScheduler()
    let log = Log<Int>()
    let subscription = Signal<Int, Never>([1, 2, 3], on: scheduler).subscribe { event in
      if case .next(let value) = event { log.append(value) }
    }
    scheduler.step()
    scheduler.step()
    #expect(log.values == [1, 2])
    subscription.dispose()
    scheduler.run()
    #expect(log.values == [1, 2])
    scheduler.expectNoPendingWork()
  }

  @Test("On a serial scheduler the elements arrive in order and the signal finishes")
  func serialScheduler() async {
    let scheduler = SerialScheduler(name: "sequence")
    let done = Latch()
    let log = Log<Int>()
    _ = Signal<Int, Never>(Array(0..<1_000), on: scheduler).subscribe { event in
      switch event {
      case .next(let value): log.append(value)
      case .finished, .failed: done.signal()
      }
    }
    #expect(await done.wait())
    #expect(log.values == Array(0..<1_000))
  }
}

/// Seeded random interleavings of the emission machine's events against a reference model.
@Suite("Sequence emission state machine model (ModelTests)")
struct SequenceEmissionModelTests {
  @Test("Each job is either run inline, emitted on its thread, or stopped; nothing runs after disposal")
  func machineMatchesTheModel() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        var machine = SequenceEmissionStateMachine()
        var disposed = false
        var emits = 0
        for _ in 0..<40 {
          let thread = UInt(random.next() % 2 + 1)
          if random.next() % 10 == 0 {
            _ = machine.dispose()
            disposed = true
          }
          guard case .schedule(let job) = machine.willSchedule(on: thread) else {
            if !disposed { failures.record("seed \(seed): stopped while not disposed") }
            continue
          }
          if disposed { failures.record("seed \(seed): scheduled after disposal") }
          // The job runs inline (same thread, before `schedule` returns), on another thread before or
          // after `schedule` returns, or not yet.
          let handle = ScheduledAction {}
          switch random.next() % 3 {
          case 0:
            let ran = machine.jobRan(job, on: thread)
            let after = machine.scheduled(job, handle: handle)
            if disposed {
              if ran != .stop { failures.record("seed \(seed): a job ran after disposal") }
            } else if ran != .markedInline {
              failures.record("seed \(seed): an inline job was not marked")
            } else if case .emitHere = after {
              emits += 1
            } else {
              failures.record("seed \(seed): an inline job was not emitted by the scheduling loop")
            }
          case 1:
            let ran = machine.jobRan(job, on: thread == 1 ? 2 : 1)
            _ = machine.scheduled(job, handle: handle)
            if ran == .emit {
              emits += 1
            } else if !disposed {
              failures.record("seed \(seed): a job on another thread did not emit")
            }
          default:
            _ = machine.scheduled(job, handle: handle)
            let ran = machine.jobRan(job, on: thread)
            if ran == .emit {
              emits += 1
            } else if !disposed {
              failures.record("seed \(seed): a later job did not emit")
            }
          }
          if machine.isDisposed != disposed { failures.record("seed \(seed): disposal state differs") }
        }
        if emits == 0 && !disposed { failures.record("seed \(seed): nothing was emitted") }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }
}
