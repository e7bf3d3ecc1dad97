/// Which capturing scopes' pumps are blocked in one job: the pure half of ``PumpWatch``. Each watched
/// scope's pump shows a token while it runs a job (0 between jobs); a token seen unchanged for the
/// scope's stall timeout means the job has blocked the pump that long (a semaphore, a lock,
/// `Thread.sleep` waiting for work that only the pump could run).
///
/// Times are real uptime nanoseconds. A scope is checked every half stall timeout; a token is first seen
/// at a check, not when its job began, so a block is found between one and one and a half stall
/// timeouts after it began.
package struct PumpWatchState {
  /// One watched scope.
  package struct Entry: Equatable {
    /// The scope's stall timeout, in nanoseconds (at least 1).
    package let timeout: UInt64
    /// The token seen at the last check (0: between jobs).
    package var token: UInt64 = 0
    /// When that token was first seen.
    package var since: UInt64
    /// When the scope is next checked.
    package var nextCheck: UInt64
  }

  /// What the watch's timer must do after an event.
  package enum Arming: Equatable {
    /// Leave it as it is.
    case unchanged
    /// Fire at this uptime (the earliest check due).
    case arm(at: UInt64)
  }

  /// The watched scopes, by scope ID.
  package private(set) var entries: [UInt64: Entry] = [:]
  /// When the timer is set to fire (`nil`: not armed).
  package private(set) var armedAt: UInt64?

  package init() {}

  /// Starts watching scope `scope`, whose stall timeout is `timeout` nanoseconds, at `now`.
  package mutating func watch(scope: UInt64, timeout: UInt64, now: UInt64) -> Arming {
    let timeout = max(timeout, 1)
    let check = now &+ max(timeout / 2, 1)
    entries[scope] = Entry(timeout: timeout, since: now, nextCheck: check)
    return arm(for: check)
  }

  /// Stops watching scope `scope` (it ended, or its pump was taken over). The timer is left armed: when
  /// it fires with nothing to check, it is not armed again.
  package mutating func unwatch(scope: UInt64) { entries[scope] = nil }

  /// The timer fired at `now`; `token(scope)` reads a scope's pump token. Returns the scopes whose pump
  /// has shown one job's token for at least their timeout, with that token (they are no longer
  /// watched), and the next arming.
  package mutating func fired(
    now: UInt64, token: (UInt64) -> UInt64
  ) -> (blocked: [(scope: UInt64, token: UInt64)], arming: Arming) {
    armedAt = nil
    var blocked: [(scope: UInt64, token: UInt64)] = []
    var earliest: UInt64?
    for (scope, var entry) in entries {
      guard entry.nextCheck <= now else {
        earliest = min(earliest ?? .max, entry.nextCheck)
        continue
      }
      let current = token(scope)
      let half = max(entry.timeout / 2, 1)
      if current != 0 && current == entry.token {
        if now &- entry.since >= entry.timeout {
          blocked.append((scope, current))
          entries[scope] = nil
          continue
        }
        entry.nextCheck = min(entry.since &+ entry.timeout, now &+ half)
      } else {
        entry.token = current
        entry.since = now
        entry.nextCheck = now &+ half
      }
      entries[scope] = entry
      earliest = min(earliest ?? .max, entry.nextCheck)
    }
    guard let earliest else { return (blocked, .unchanged) }
    return (blocked, arm(for: earliest))
  }

  /// Arms the timer for `check` unless it already fires at or before it.
  private mutating func arm(for check: UInt64) -> Arming {
    if let armedAt, armedAt <= check { return .unchanged }
    armedAt = check
    return .arm(at: check)
  }
}
