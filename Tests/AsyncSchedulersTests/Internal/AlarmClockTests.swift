import AsyncSchedulersTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("AlarmClock")
struct AlarmClockTests {
  @Test("an arming older than one the clock already performed is ignored: an engine arms after its lock")
  func staleArmingIsIgnored() async {
    let fired = Latch()
    let registration = AlarmRegistration { _ in fired.signal() }
    let now = SchedulerInstant.uptimeNow
    let hour = now.advanced(by: .seconds(3600))
    // The engine decided 1 (fire now), then 2 (fire in an hour); they reach the clock in reverse order.
    AlarmClock.shared.arm(AlarmArming(registration: registration, earliest: hour, latest: hour, generation: 2))
    AlarmClock.shared.arm(AlarmArming(registration: registration, earliest: now, latest: now, generation: 1))
    #expect(!(await fired.wait(timeout: .milliseconds(200))))
    // A newer decision moves it.
    AlarmClock.shared.arm(AlarmArming(registration: registration, earliest: now, latest: now, generation: 3))
    #expect(await fired.wait())
  }

  @Test("a cancelled registration ignores an arming still on its way")
  func cancelledRegistrationStaysCancelled() async {
    let fires = Atomic<Int>(0)
    let registration = AlarmRegistration { _ in fires.wrappingAdd(1, ordering: .relaxed) }
    let now = SchedulerInstant.uptimeNow
    AlarmClock.shared.cancel(registration)
    AlarmClock.shared.arm(AlarmArming(registration: registration, earliest: now, latest: now, generation: 1))
    // A timer armed after it, on the same clock, fires: by then the cancelled one would have too.
    let later = Latch()
    let witness = AlarmRegistration { _ in later.signal() }
    AlarmClock.shared.arm(
      AlarmArming(
        registration: witness, earliest: now.advanced(by: .milliseconds(1)), latest: now.advanced(by: .milliseconds(1)),
        generation: 1))
    #expect(await later.wait())
    #expect(fires.load(ordering: .relaxed) == 0)
  }

  // The tests of running work on the clock's thread run in a child process: there, no other test's
  // alarm is armed, so whether the clock runs a lone alarm's work itself is deterministic.

  @Test("a default-priority serial scheduler's lone timer runs on the clock's thread, at the OS's default timer slack")
  func loneTimerRunsOnTheClockThread() async {
    await #expect(processExitsWith: .success) {
      let scheduler = SerialScheduler(name: "lone")
      let ticked = DispatchSemaphore(value: 0)
      let onClock = Atomic<Int>(0)
      let defaultSlack = Atomic<Int>(0)
      // A leeway of 20 ms lets the clock's thread sleep with 20 ms of slack; the body must not inherit it.
      // A 50 ms period leaves the machine room: with 5 ms the child process exited 1 once, in a sanitized
      // run that had stalled for 500 s at its start (the cause was not isolated).
      let timer = scheduler.scheduleRepeating(every: .milliseconds(50), leeway: .milliseconds(20)) {
        if onClockThread() { onClock.add(1, ordering: .relaxed) }
        if (currentTimerSlack() ?? AlarmClockStateMachine.minimumSlack) == AlarmClockStateMachine.minimumSlack {
          defaultSlack.add(1, ordering: .relaxed)
        }
        ticked.signal()
      }
      for _ in 0..<3 where ticked.wait(timeout: .now() + 30) == .timedOut { exit(2) }
      timer.dispose()
      // Every tick ran on the clock's thread (no worker woken), with the default slack.
      let ticks = onClock.load(ordering: .relaxed)
      exit(ticks >= 3 && defaultSlack.load(ordering: .relaxed) == ticks ? 0 : 1)
    }
  }

  @Test(
    "work that blocks on the clock's thread does not hold up another scheduler's timer: a second thread takes the watch"
  )
  func blockingInlineWorkHandsTheWatchOn() async {
    await #expect(processExitsWith: .success) {
      let blocking = SerialScheduler(name: "blocking")
      let other = SerialScheduler(name: "other")
      let unblocked = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      let outcome = Atomic<Int32>(0)
      blocking.execute(after: .milliseconds(1)) {
        // The test means something only if this runs on the clock's thread.
        guard onClockThread() else {
          outcome.store(3, ordering: .relaxed)
          done.signal()
          return
        }
        // Another scheduler's timer, armed while the clock's only thread runs this body: it fires anyway.
        other.execute(after: .milliseconds(5)) { unblocked.signal() }
        outcome.store(unblocked.wait(timeout: .now() + 30) == .success ? 0 : 4, ordering: .relaxed)
        done.signal()
      }
      done.wait()
      let code = outcome.load(ordering: .relaxed)
      exit(code != 0 ? code : clockThreadCount() == 2 ? 0 : 5)
    }
  }

  @Test(
    "a scheduler at another priority, low-latency, or on a target queue of yours never runs work on the clock's thread")
  func otherSchedulersKeepTheirWorkers() async {
    await #expect(processExitsWith: .success) {
      let schedulers = [
        SerialScheduler(name: "high", priority: .high),
        SerialScheduler(name: "background", priority: .background),
        SerialScheduler(name: "low-latency", latencyMode: .lowLatency),
        SerialScheduler(name: "target", targetQueue: DispatchQueue(label: "target")),
      ]
      for scheduler in schedulers {
        let ran = DispatchSemaphore(value: 0)
        let onClock = Atomic<Bool>(false)
        scheduler.execute(after: .milliseconds(1)) {
          onClock.store(onClockThread(), ordering: .relaxed)
          ran.signal()
        }
        if ran.wait(timeout: .now() + 30) == .timedOut { exit(2) }
        if onClock.load(ordering: .relaxed) { exit(1) }
      }
      exit(0)
    }
  }
}

/// Whether the calling thread is one of the alarm clock's (Linux: by its name in /proc).
private func onClockThread() -> Bool {
  let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
  return name?.trimmingCharacters(in: .whitespacesAndNewlines) == AlarmClock.threadName
}

/// How many of this process's threads are the alarm clock's (Linux: their names in /proc).
private func clockThreadCount() -> Int {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
  return tasks.filter { task in
    let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
    return name?.trimmingCharacters(in: .whitespacesAndNewlines) == AlarmClock.threadName
  }.count
}

/// The calling thread's timer slack (Linux's `PR_GET_TIMERSLACK`; `prctl` is variadic, so it is reached
/// by name), or `nil` where there is none.
private func currentTimerSlack() -> Duration? {
  #if os(Linux)
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return nil }
    let slack = unsafeBitCast(symbol, to: Prctl.self)(30, 0, 0, 0, 0)
    return slack < 0 ? nil : .nanoseconds(Int64(slack))
  #else
    return nil
  #endif
}
