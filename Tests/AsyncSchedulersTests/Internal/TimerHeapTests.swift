import AsyncSchedulers
import Testing

@Suite("TimerHeap")
struct TimerHeapTests {
  @Test("pops in (deadline, sequence) order after random inserts and removals")
  func order() {
    var heap = TimerHeap()
    var generator = SystemRandomNumberGenerator()
    var expected: [(SchedulerInstant, UInt64, ScheduledTimer)] = []
    for sequence in 0..<2_000 {
      let timer = ScheduledTimer(owner: nil) {}
      let deadline = SchedulerInstant(offset: .milliseconds(Int64.random(in: 0..<200, using: &generator)))
      heap.insert(timer, deadline: deadline, sequence: UInt64(sequence))
      expected.append((deadline, UInt64(sequence), timer))
    }
    for index in stride(from: 0, to: expected.count, by: 7) {
      let removed = heap.remove(expected[index].2)
      let removedTwice = heap.remove(expected[index].2)
      #expect(removed && !removedTwice)
      #expect(expected[index].2.heapIndex == -1)
    }
    let remaining = expected.enumerated().filter { $0.offset % 7 != 0 }.map(\.element)
      .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    var popped: [ScheduledTimer] = []
    while let entry = heap.popFirst(), let timer = entry.timer { popped.append(timer) }
    #expect(popped.count == remaining.count)
    #expect(zip(popped, remaining).allSatisfy { $0 === $1.2 })
  }
}
