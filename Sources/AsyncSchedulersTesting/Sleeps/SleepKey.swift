/// The key of a plain sleep's wake-up timer (see `TestScheduler.scheduleSleep(_:after:)`): unique in
/// the process, handed out in increasing order.
///
/// It hashes without `Hasher`: a sleep is remembered and forgotten once each, on the path of every plain
/// `Task.sleep` on virtual time, and SipHash was a tenth of that path. Keys are sequential (never chosen
/// by an adversary), and multiplying by an odd constant maps distinct low bits to distinct low bits, so
/// live keys spread over the table's buckets.
struct SleepKey: Hashable {
  let value: UInt64

  init(_ value: UInt64) { self.value = value }

  func hash(into hasher: inout Hasher) { hasher.combine(value) }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  func _rawHashValue(seed: Int) -> Int {
    Int(truncatingIfNeeded: (value ^ UInt64(truncatingIfNeeded: seed)) &* 0x9E37_79B9_7F4A_7C15)
  }
}
