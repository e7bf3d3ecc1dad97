/// A dictionary key for identifiers the process hands out in increasing order (a plain sleep's wake-up
/// timer, see `TestScheduler.scheduleSleep(_:after:)`; a task's ID in ``ActiveScopes``' task map): it
/// hashes without `Hasher`.
///
/// Both maps are on the path of every job or sleep of a capturing scope, and SipHash was a tenth of a
/// plain `Task.sleep`'s path. The identifiers are never chosen by an adversary, so one multiplication by
/// an odd constant, with the high half folded into the low bits the table's buckets are chosen by,
/// spreads them: keys that differ only above the low bits (the task IDs of one shard share their low six
/// bits) land in different buckets.
struct SequentialKey: Hashable {
  let value: UInt64

  init(_ value: UInt64) { self.value = value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  func _rawHashValue(seed: Int) -> Int {
    let product = (value ^ UInt64(truncatingIfNeeded: seed)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: product ^ (product >> 32))
  }
}
