import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("catch, replaceError and retry")
struct RecoveringOperatorTests {
  @Test("catch switches to the recovery signal at the failure; the end passes through")
  func catchFailure() {
    let timeline = OperatorTimeline()
    let source = timeline.source([(1, .next(1)), (2, .failed(TestError(code: 7)))])
    let recovered = source.catch { error in
      Signal<Int, Never>.just(error.code * 10)
    }
    #expect(timeline.run(recovered) == ["next(1)@1", "next(70)@2", "finished@2"])
    #expect(timeline.disposals.values == [1])
  }

  @Test("catch works when the signal fails while it is being subscribed")
  func catchSynchronousFailure() {
    let log = Log<String>()
    let recovered = Signal<Int, TestError>.fail(TestError()).catch { _ in Signal<Int, Never>.just(5) }
    recovered.subscribe { (event: SignalEvent<Int, Never>) in log.append("\(event)") }
    #expect(log.values == ["next(5)", "finished"])
  }

  @Test("replaceError sends the replacement and finishes instead of failing")
  func replaceError() {
    let timeline = OperatorTimeline()
    let source = timeline.source([(1, .next(1)), (2, .failed(TestError()))])
    #expect(timeline.run(source.replaceError(with: 0)) == ["next(1)@1", "next(0)@2", "finished@2"])
  }

  @Test("retry subscribes again after each failure, up to its count; the last failure passes through")
  func retry() {
    let timeline = OperatorTimeline()
    let source = timeline.source([(1, .next(1)), (2, .failed(TestError()))])
    // Each subscription replays the source's timeline from its own start: 0, 2 and 4 seconds.
    #expect(
      timeline.run(source.retry(2))
        == ["next(1)@1", "next(1)@3", "next(1)@5", "failed(AsyncSignalsTests.TestError(code: 1))@6"])
    #expect(timeline.disposals.values.count == 3)
  }

  @Test("retry() resubscribes until the signal finishes, in a loop when it fails while being subscribed")
  func retryUntilItFinishes() {
    let attempts = Log<Int>()
    // Fails at once on its first 100,000 subscriptions (a recursive retry would overflow the stack).
    let flaky = Signal<Int, TestError> { observer in
      attempts.append(1)
      if attempts.values.count <= 100_000 {
        observer.fail(TestError())
      } else {
        observer.send(7)
        observer.finish()
      }
      return nil
    }
    let log = Log<String>()
    flaky.retry().subscribe { (event: SignalEvent<Int, TestError>) in log.append("\(event)") }
    #expect(log.values == ["next(7)", "finished"])
    #expect(attempts.values.count == 100_001)
    let limited = Log<String>()
    Signal<Int, TestError>.fail(TestError()).retry(3).subscribe { (event: SignalEvent<Int, TestError>) in
      limited.append("\(event)")
    }
    #expect(limited.values == ["failed(AsyncSignalsTests.TestError(code: 1))"])
  }
}
