import AsyncSchedulersTestSupport
import Dispatch
import Testing

@testable import AsyncSchedulers

@Suite("WakeUpWord")
struct WakeUpWordTests {
  @Test("a wait returns at once when the word moved past what the sleeper saw: a wake-up is never lost")
  func staleSnapshotReturnsAtOnce() {
    let word = WakeUpWord()
    let seen = word.snapshot()
    word.bump()
    word.wake()
    // With no timeout this would sleep for ever if the bump were lost.
    let start = ContinuousClock.now
    word.wait(seen: seen, timeout: .seconds(60))
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test("a wait ends at its timeout, not before")
  func timeoutEndsTheWait() {
    let word = WakeUpWord()
    let start = ContinuousClock.now
    // Spurious returns are allowed; loop on the deadline as the alarm clock does.
    while ContinuousClock.now - start < .milliseconds(20) {
      word.wait(seen: word.snapshot(), timeout: .milliseconds(20) - (ContinuousClock.now - start))
    }
    #expect(ContinuousClock.now - start >= .milliseconds(20))
  }

  @Test("a wake from another thread ends a wait with no timeout")
  func wakeEndsAnUntimedWait() async {
    let word = WakeUpWord()
    let woke = Latch()
    let seen = word.snapshot()
    let thread = DispatchQueue(label: "sleeper")
    thread.async {
      word.wait(seen: seen, timeout: nil)
      woke.signal()
    }
    word.bump()
    word.wake()
    #expect(await woke.wait())
  }
}
