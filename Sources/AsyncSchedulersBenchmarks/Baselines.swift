import Dispatch

/// The baseline custom executor: a serial executor that merely wraps a serial `DispatchQueue`.
final class DispatchQueueExecutor: SerialExecutor, TaskExecutor, Sendable {
  let queue: DispatchQueue
  init(label: String) { queue = DispatchQueue(label: label) }
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

/// The virtual-time baseline: a plain binary heap of (deadline, sequence, closure) popped in order.
struct ClosureHeap {
  private var items: [(deadline: Int64, sequence: Int, action: () -> Void)] = []
  private var sequence = 0

  mutating func insert(_ deadline: Int64, _ action: @escaping () -> Void) {
    items.append((deadline, sequence, action))
    sequence += 1
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(child, parent) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  private func precedes(_ a: Int, _ b: Int) -> Bool {
    items[a].deadline < items[b].deadline
      || (items[a].deadline == items[b].deadline && items[a].sequence < items[b].sequence)
  }

  mutating func runAll() {
    while !items.isEmpty {
      let first = items[0]
      let last = items.removeLast()
      if !items.isEmpty {
        items[0] = last
        var parent = 0
        while true {
          var candidate = 2 * parent + 1
          guard candidate < items.count else { break }
          if candidate + 1 < items.count && precedes(candidate + 1, candidate) { candidate += 1 }
          guard precedes(candidate, parent) else { break }
          items.swapAt(candidate, parent)
          parent = candidate
        }
      }
      first.action()
    }
  }
}
