import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// The stall watch's decisions in the scheduler's state machine, step by step and without real time:
/// which arrivals arm the watch, and whether the watch, when it ends, finds a stall.
@Suite("TestSchedulerStateMachine: the stall watch's decisions")
struct TestSchedulerStateMachineStallWatchTests {
  private static func machine() -> TestSchedulerStateMachine {
    TestSchedulerStateMachine(now: .zero, maximumJobsPerInstant: 100, creator: .thread(0))
  }

  private static func addTimer(to machine: inout TestSchedulerStateMachine, atSecond second: Int64) -> ScheduledTimer {
    let timer = ScheduledTimer(owner: nil) {}
    _ = machine.addTimer(timer, at: .zero.advanced(by: .seconds(second)))
    return timer
  }

  private static func drive(_ machine: inout TestSchedulerStateMachine) {
    _ = machine.beginDrivingCall(onPump: false, from: nil, byTest: true)
    machine.endDrivingCall()
  }

  @Test("a sleep on a scheduler nothing has driven arms the watch, and is a stall when the watch ends")
  func undrivenSleepIsAStall() {
    var machine = Self.machine()
    let sleep = Self.addTimer(to: &machine, atSecond: 5)
    let armed = machine.watchSleep(sleep)
    #expect(armed)
    let ended = machine.stallWatchEnded()
    #expect(ended == .stalled)
  }

  @Test("a sleep on a scheduler the test has driven arms nothing and is no stall")
  func drivenSchedulersSleepIsNotWatched() {
    var machine = Self.machine()
    Self.drive(&machine)
    let sleep = Self.addTimer(to: &machine, atSecond: 6)
    let armed = machine.watchSleep(sleep)
    #expect(!armed)
    let ended = machine.stallWatchEnded()
    #expect(ended == .noStall)
  }

  @Test("a watched sleep is no stall once the test drives the scheduler, nor once its timer has left")
  func drivingOrRemovalEndsTheWatch() {
    var driven = Self.machine()
    let armed = driven.watchSleep(Self.addTimer(to: &driven, atSecond: 5))
    #expect(armed)
    Self.drive(&driven)
    let ended = driven.stallWatchEnded()
    #expect(ended == .noStall)

    var removed = Self.machine()
    let sleep = Self.addTimer(to: &removed, atSecond: 5)
    let armedAgain = removed.watchSleep(sleep)
    #expect(armedAgain)
    removed.removeTimer(sleep)
    let endedAgain = removed.stallWatchEnded()
    #expect(endedAgain == .noStall)
  }

  @Test("a callback timer arms nothing before a stall, and arms the watch after one")
  func callbackTimerArmsOnlyAfterAStall() {
    var machine = Self.machine()
    _ = Self.addTimer(to: &machine, atSecond: 1)
    let armed = machine.armStallWatchForTimer()
    #expect(!armed)
    let ended = machine.stallWatchEnded()
    #expect(ended == .noStall)
    // A stall (a watched sleep), then its timer leaves (it fired): nothing that waits is pending.
    let sleep = Self.addTimer(to: &machine, atSecond: 5)
    let armedAgain = machine.watchSleep(sleep)
    #expect(armedAgain)
    let endedAgain = machine.stallWatchEnded()
    #expect(endedAgain == .stalled)
    machine.removeTimer(sleep)
    // A timer that arrives late, after the stall, arms the watch, which then runs it.
    _ = Self.addTimer(to: &machine, atSecond: 7)
    let armedThird = machine.armStallWatchForTimer()
    #expect(armedThird)
    let endedThird = machine.stallWatchEnded()
    #expect(endedThird == .stalledAgain)
  }
}
