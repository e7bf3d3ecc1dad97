import Testing

@testable import AsyncSchedulers

@Suite("HandOffLatency")
struct HandOffLatencyTests {
  @Test("the timer window is twice the expected hand-off plus 20 µs, between 50 µs and 0.5 ms")
  func windowBounds() {
    #expect(HandOffLatency.window(alarmWake: 100_000, workerStart: 80_000) == .microseconds(380))
    #expect(HandOffLatency.window(alarmWake: 0, workerStart: 0) == .microseconds(50))
    #expect(HandOffLatency.window(alarmWake: 2_000_000, workerStart: 2_000_000) == .microseconds(500))
  }

  @Test("the averages move an eighth of the way to each sample, and one stall counts as at most 2 ms")
  func averaging() {
    #expect(HandOffLatency.averaged(80_000, with: 160_000) == 90_000)
    #expect(HandOffLatency.averaged(80_000, with: 1_000_000_000) == 80_000 + (2_000_000 - 80_000) / 8)
    #expect(HandOffLatency.averaged(80_000, with: -5) == 70_000)
  }
}
