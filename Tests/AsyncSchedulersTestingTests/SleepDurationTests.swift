import Testing

@testable import AsyncSchedulersTesting

@Suite("SleepDuration: recovering a sleep's duration from its real-clock deadline")
struct SleepDurationTests {
  @Test(
    "The roundest duration in the window is the one meant",
    arguments: [
      (299_700_000, 300_020_000, 300_000_000),
      (999_990_000, 1_000_001_000, 1_000_000_000),
      (1_499_990_000, 1_500_050_000, 1_500_000_000),
      (259_999_000, 262_000_000, 260_000_000),
      (1_234_567, 1_234_569, 1_234_567),
      (1_234_560, 1_234_567, 1_234_560),
      (7, 7, 7),
    ] as [(Int64, Int64, Int64)])
  func roundestInTheWindow(shortest: Int64, longest: Int64, expected: Int64) {
    #expect(
      SleepDuration.roundest(shortest: .nanoseconds(shortest), longest: .nanoseconds(longest)).duration
        == .nanoseconds(expected)
    )
  }

  @Test("A window already past counts as zero, and bounds in the wrong order are swapped")
  func edgeWindows() {
    #expect(SleepDuration.roundest(shortest: .milliseconds(-5), longest: .milliseconds(-1)).duration == .zero)
    #expect(SleepDuration.roundest(shortest: .milliseconds(-5), longest: .milliseconds(1)).duration == .zero)
    #expect(
      SleepDuration.roundest(shortest: .milliseconds(301), longest: .milliseconds(299)).duration == .milliseconds(300))
  }

  @Test("Durations past Int64 nanoseconds saturate instead of trapping")
  func hugeDurations() {
    let huge = Duration.seconds(Int64.max)
    #expect(SleepDuration.roundest(shortest: huge, longest: huge).duration > .seconds(9_000_000_000))
  }
}
