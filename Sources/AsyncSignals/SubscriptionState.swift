/// State owned by one subscription of an operator and touched only from that subscription's event
/// handler.
///
/// A ``SignalObserver`` delivers one event at a time, never overlapping, so a handler's state needs no
/// lock; this box carries it across the `@Sendable` boundary of the handler closure. The bridges' operators
/// use it too.
@usableFromInline package final class SubscriptionState<Value>: @unchecked Sendable {
  // Why @unchecked Sendable: `value` is read and written only inside one subscription's event handler,
  // which its SignalObserver runs one event at a time (a send made meanwhile waits its turn or is
  // queued, never run concurrently); the observer's lock orders consecutive deliveries.
  @usableFromInline package var value: Value
  @inlinable package init(_ value: Value) { self.value = value }
}
