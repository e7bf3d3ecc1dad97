import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Drives `TimerHeap` with seeded random inserts, removals (present and absent) and pops against a
/// sorted reference list, checking after every step the heap order, every timer's recorded index,
/// and the earliest entry.
@Suite("TimerHeap model")
struct TimerHeapModelTests {
  @Test("random inserts, removals and pops match a sorted reference, with indices kept after every step")
  func randomOperations() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(400) {
        var random = SplitMix(seed: seed)
        var heap = TimerHeap()
        var reference: [(deadline: SchedulerInstant, sequence: UInt64, timer: ScheduledTimer)] = []
        var removed: [ScheduledTimer] = []
        var sequence: UInt64 = 0
        for step in 0..<200 {
          switch random.next() % 5 {
          case 0, 1:
            let timer = ScheduledTimer(owner: nil) {}
            // Few distinct deadlines, so equal deadlines (ordered by sequence) are common.
            let deadline = SchedulerInstant(offset: .milliseconds(Int64(random.next() % 20)))
            heap.insert(timer, deadline: deadline, sequence: sequence)
            reference.append((deadline, sequence, timer))
            sequence += 1
          case 2 where !reference.isEmpty:
            let index = Int(random.next() % UInt64(reference.count))
            let timer = reference.remove(at: index).timer
            let wasPresent = heap.remove(timer)
            failures.check(wasPresent, "seed \(seed) step \(step): a present timer was not removed")
            removed.append(timer)
          case 3 where !removed.isEmpty:
            let timer = removed[Int(random.next() % UInt64(removed.count))]
            let wasPresent = heap.remove(timer)
            failures.check(!wasPresent, "seed \(seed) step \(step): an absent timer was removed")
          default:
            reference.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            let popped = heap.popFirst()
            if reference.isEmpty {
              failures.check(popped == nil, "seed \(seed) step \(step)")
            } else {
              let expected = reference.removeFirst()
              failures.check(popped?.timer === expected.timer, "seed \(seed) step \(step): popped out of order")
              removed.append(expected.timer)
            }
          }
          let entries = heap.entries
          failures.check(entries.count == reference.count, "seed \(seed) step \(step)")
          for (index, entry) in entries.enumerated() {
            if entry.timer?.heapIndex != index {
              failures.record(
                "seed \(seed) step \(step): timer at \(index) records index \(String(describing: entry.timer?.heapIndex))"
              )
            }
            if index > 0 {
              let parent = entries[(index - 1) / 2]
              if (entry.deadline, entry.sequence) < (parent.deadline, parent.sequence) {
                failures.record("seed \(seed) step \(step): heap order broken at \(index)")
              }
            }
          }
          for timer in removed where timer.heapIndex != -1 {
            failures.record("seed \(seed) step \(step): a removed timer records index \(timer.heapIndex)")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
