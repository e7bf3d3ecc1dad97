import Testing

@testable import AsyncSchedulers

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

  @Test("the firing window ends at the earliest deadline plus leeway and starts once every timer due by then is due")
  func firingWindow() {
    func at(_ microseconds: Int64) -> SchedulerInstant { SchedulerInstant(offset: .microseconds(microseconds)) }
    var heap = TimerHeap()
    #expect(heap.firingWindow == nil)
    heap.insert(ScheduledTimer(owner: nil) {}, deadline: at(100), leeway: .zero, sequence: 0)
    #expect(heap.firingWindow.map { [$0.start, $0.end] } == [at(100), at(100)])
    var wide = TimerHeap()
    for (index, (deadline, leeway)) in [(100, 400), (300, 50), (200, 500), (600, 0), (340, 0)].enumerated() {
      wide.insert(
        ScheduledTimer(owner: nil) {}, deadline: at(Int64(deadline)), leeway: .microseconds(leeway),
        sequence: UInt64(index))
    }
    // Ends at 340 (the timer due at 340 has no leeway, and 300 + 50 = 350); starts when the timers due
    // by 340 (100, 200, 300, 340) are all due.
    #expect(wide.firingWindow.map { [$0.start, $0.end] } == [at(340), at(340)])
    _ = wide.remove(wide.entries.first { $0.deadline == at(340) }!.timer!)
    #expect(wide.firingWindow.map { [$0.start, $0.end] } == [at(300), at(350)])
  }
}
