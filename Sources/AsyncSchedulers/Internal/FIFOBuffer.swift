/// A first-in first-out buffer with O(1) amortized append and pop: an array and a head index,
/// compacted as it drains. Not thread-safe: its owner guards it.
///
/// Shared by the state machines of the layers on top of the core (a subscription's queued events, an
/// iteration's buffered values, a RAC serial queue); `@inlinable`, so it specializes in their modules.
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

  /// Empties the buffer.
  @inlinable package mutating func removeAll() {
    items.removeAll()
    head = 0
  }
}
