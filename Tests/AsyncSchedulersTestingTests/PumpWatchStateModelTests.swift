import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

/// Drives `PumpWatchState` (which scopes' pumps are blocked in one job) with seeded random histories:
/// scopes watched and unwatched, pumps starting and ending jobs, the timer firing when it is armed.
/// After every step, against the truth of when each job began:
/// - a scope is reported only when its pump has run the reported job for at least its stall timeout;
/// - a job that has run for one and a half timeouts (and a check) has been reported;
/// - while scopes are watched the timer is armed, no later than the earliest check due, and every check
///   is in the future.
@Suite("PumpWatchState model")
struct PumpWatchStateModelTests {
  /// One scope's pump, as it truly is.
  struct Pump {
    let timeout: UInt64
    var token: UInt64 = 0
    var jobStart: UInt64 = 0
  }

  @Test("random histories report every blocked pump within 1.5 stall timeouts, and never a pump that is not")
  func randomHistories() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(300) {
        var random = SplitMix(seed: seed)
        var state = PumpWatchState()
        var pumps: [UInt64: Pump] = [:]
        var now: UInt64 = 1_000
        var nextScope: UInt64 = 1
        var nextToken: UInt64 = 1
        func fail(_ message: String, _ step: Int) {
          failures.record("seed \(seed) step \(step) (printed to replay: ASYNC_SCHEDULERS_SEED=\(seed)): \(message)")
        }
        for step in 0..<400 {
          let eventAt = now + random.next() % 400
          if let armed = state.armedAt, armed <= eventAt {
            now = max(now, armed)
            let (blocked, _) = state.fired(now: now) { pumps[$0]?.token ?? 0 }
            for found in blocked {
              guard let pump = pumps[found.scope] else {
                fail("scope \(found.scope) reported, but it is not watched", step)
                continue
              }
              if found.token != pump.token || pump.token == 0 {
                fail("scope \(found.scope) reported with token \(found.token), its pump shows \(pump.token)", step)
              } else if now - pump.jobStart < pump.timeout {
                fail("scope \(found.scope) reported after \(now - pump.jobStart), timeout \(pump.timeout)", step)
              }
              pumps[found.scope] = nil  // The scope goes on on a new pump, watched afresh if at all.
            }
            for (scope, pump) in pumps where pump.token != 0 && now - pump.jobStart > pump.timeout * 3 / 2 + 1 {
              fail("scope \(scope) blocked for \(now - pump.jobStart) (timeout \(pump.timeout)), not reported", step)
            }
          } else {
            now = eventAt
            switch random.next() % 6 {
            case 0:
              let timeout = random.next() % 1_000 + 1
              let scope = nextScope
              nextScope += 1
              pumps[scope] = Pump(timeout: timeout)
              _ = state.watch(scope: scope, timeout: timeout, now: now)
            case 1:
              if let scope = pumps.keys.randomElement(using: &random) {
                pumps[scope] = nil
                state.unwatch(scope: scope)
              }
            case 2, 3:
              if let scope = pumps.keys.randomElement(using: &random), pumps[scope]!.token == 0 {
                pumps[scope]!.token = nextToken
                pumps[scope]!.jobStart = now
                nextToken += 1
              }
            default:
              if let scope = pumps.keys.randomElement(using: &random) { pumps[scope]!.token = 0 }
            }
          }
          // Invariants after every step.
          if Set(state.entries.keys) != Set(pumps.keys) {
            fail("watching \(state.entries.keys.sorted()), expected \(pumps.keys.sorted())", step)
          }
          if let earliest = state.entries.values.map(\.nextCheck).min() {
            if let armed = state.armedAt {
              if armed > earliest { fail("armed at \(armed), a check is due at \(earliest)", step) }
            } else {
              fail("scopes are watched and the timer is not armed", step)
            }
            if earliest <= now && state.armedAt! > now {
              fail("a check due at \(earliest) is past (now \(now)) and the timer fires later", step)
            }
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("a pump that shows one job's token for the timeout is reported at the check that sees it")
  func reportsTheBlockedPump() {
    var state = PumpWatchState()
    #expect(state.watch(scope: 7, timeout: 100, now: 0) == .arm(at: 50))
    var token: UInt64 = 0
    // Between jobs at the first check: checked again half a timeout later.
    var (blocked, arming) = state.fired(now: 50) { _ in token }
    #expect(blocked.isEmpty && arming == .arm(at: 100))
    token = 3
    (blocked, arming) = state.fired(now: 100) { _ in token }
    #expect(blocked.isEmpty && arming == .arm(at: 150))
    (blocked, arming) = state.fired(now: 150) { _ in token }
    #expect(blocked.isEmpty && arming == .arm(at: 200))
    (blocked, arming) = state.fired(now: 200) { _ in token }
    #expect(blocked.map(\.scope) == [7] && blocked.map(\.token) == [3])
    #expect(arming == .unchanged && state.entries.isEmpty)
  }
}
