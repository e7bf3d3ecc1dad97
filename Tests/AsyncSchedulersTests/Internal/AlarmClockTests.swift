import AsyncSchedulersTestSupport
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("AlarmClock")
struct AlarmClockTests {
  @Test("an arming older than one the clock already performed is ignored: an engine arms after its lock")
  func staleArmingIsIgnored() async {
    let fired = Latch()
    let registration = AlarmRegistration { fired.signal() }
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
    let registration = AlarmRegistration { fires.wrappingAdd(1, ordering: .relaxed) }
    let now = SchedulerInstant.uptimeNow
    AlarmClock.shared.cancel(registration)
    AlarmClock.shared.arm(AlarmArming(registration: registration, earliest: now, latest: now, generation: 1))
    // A timer armed after it, on the same clock, fires: by then the cancelled one would have too.
    let later = Latch()
    let witness = AlarmRegistration { later.signal() }
    AlarmClock.shared.arm(
      AlarmArming(
        registration: witness, earliest: now.advanced(by: .milliseconds(1)), latest: now.advanced(by: .milliseconds(1)),
        generation: 1))
    #expect(await later.wait())
    #expect(fires.load(ordering: .relaxed) == 0)
  }
}
