/// One unit of work waiting in a scheduler's queue.
package enum Work {
  /// A callback job (or a due timer).
  case action(ScheduledAction)
  /// A fire-and-forget callback (no handle; `Scheduler.execute(_:)`).
  case closure(@Sendable () -> Void)
  /// A job object handed over by a layer on top of the core (the RAC bridge).
  case runnable(any RunnableJob)
  /// An actor job: enqueued through the scheduler's serial executor.
  case job(UnownedJob)
  /// A task job: enqueued through the scheduler as a task executor.
  case taskJob(UnownedJob)
}

/// A FIFO of work with O(1) append, pop-first and whole-batch swap.
struct WorkFIFO {
  private(set) var items: [Work] = []
  private var head = 0

  init() {}

  var isEmpty: Bool { head == items.count }
  var count: Int { items.count - head }

  mutating func append(_ work: Work) { items.append(work) }

  mutating func popFirst() -> Work? {
    guard head < items.count else { return nil }
    let work = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024 && head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return work
  }

  /// Removes and returns the item `offset` places from the first.
  mutating func remove(at offset: Int) -> Work {
    offset == 0 ? popFirst()! : items.remove(at: head + offset)
  }

  /// Empties the FIFO, keeping its capacity.
  mutating func removeAll() {
    items.removeAll(keepingCapacity: true)
    head = 0
  }

  /// The pending items in order.
  var pending: ArraySlice<Work> { items[head...] }

  /// How many items it holds without allocating.
  var capacity: Int { items.capacity }
}
