/// A first-in first-out buffer with O(1) amortized append and pop: an array and a head index,
/// compacted as it drains. Not thread-safe: its owner guards it.
///
/// The package's one FIFO: the core's engine queues its ready work and a worker's batch in it
/// (`WorkFIFO`), and the state machines of the layers on top use it too (a subscription's queued events,
/// an iteration's buffered values, a RAC serial queue); `@inlinable`, so it specializes in their modules.
@usableFromInline package struct FIFOBuffer<Element> {
  @usableFromInline var items: [Element] = []
  @usableFromInline var head = 0

  /// An empty buffer.
  @inlinable package init() {}

  /// The number of elements waiting.
  @inlinable package var count: Int { items.count - head }

  /// Whether nothing waits.
  @inlinable package var isEmpty: Bool { head == items.count }

  /// The front element, if any, without removing it.
  @inlinable package var first: Element? { head < items.count ? items[head] : nil }

  /// Adds `element` at the back.
  @inlinable package mutating func append(_ element: Element) { items.append(element) }

  /// Removes and returns the front element, if any.
  @inlinable package mutating func popFirst() -> Element? {
    guard head < items.count else { return nil }
    let element = items[head]
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 64 && head * 2 >= items.count {
      items.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Empties the buffer; with `keepingCapacity`, its storage stays for reuse (a worker's batch).
  @inlinable package mutating func removeAll(keepingCapacity: Bool = false) {
    items.removeAll(keepingCapacity: keepingCapacity)
    head = 0
  }

  /// Removes and returns the element `offset` places from the front (linear; for a test scheduler
  /// choosing among ready jobs).
  @inlinable package mutating func remove(at offset: Int) -> Element {
    offset == 0 ? popFirst()! : items.remove(at: head + offset)
  }

  /// Moves the waiting elements, front first, into `array` (which must be empty), leaving the buffer
  /// empty; with nothing taken yet, the two swap storage, so a drainer taking batches allocates nothing.
  @inlinable package mutating func moveAll(into array: inout [Element]) {
    if head == 0 {
      swap(&items, &array)
    } else {
      array.append(contentsOf: items[head...])
      items.removeAll(keepingCapacity: true)
      head = 0
    }
  }

  /// The waiting elements, front first.
  @inlinable package var pending: ArraySlice<Element> { items[head...] }

  /// How many elements it holds without allocating.
  @inlinable package var capacity: Int { items.capacity }
}

extension FIFOBuffer: Sendable where Element: Sendable {}
