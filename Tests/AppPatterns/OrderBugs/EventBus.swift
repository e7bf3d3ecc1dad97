// App code as a team writes it: no import of swift-async-schedulers.

/// Broadcasts events to the streams subscribed at the time (no replay). A stream ends when its
/// consumer's task is cancelled.
public actor EventBus {
  private var subscribers: [AsyncStream<Int>.Continuation] = []
  public init() {}

  public func subscribe() -> AsyncStream<Int> {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    subscribers.append(continuation)
    return stream
  }

  public func send(_ event: Int) {
    for subscriber in subscribers { subscriber.yield(event) }
  }
}

/// Collects the events it receives.
public actor EventCollector {
  public private(set) var events: [Int] = []
  public init() {}
  public func add(_ event: Int) { events.append(event) }
}

/// Order bug: the consumer subscribes inside its own task, so a producer that starts at the same time
/// can send the first event before the subscription exists: the consumer misses it.
public func startConsumerThenProducer(bus: EventBus, collector: EventCollector, events: [Int]) -> Task<Void, Never> {
  let consumer = Task {
    for await event in await bus.subscribe() { await collector.add(event) }
  }
  Task {
    for event in events { await bus.send(event) }
  }
  return consumer
}

/// The fix: the subscription is made before either task starts.
public func subscribeThenStartProducer(bus: EventBus, collector: EventCollector, events: [Int]) async -> Task<
  Void, Never
> {
  let stream = await bus.subscribe()
  let consumer = Task {
    for await event in stream { await collector.add(event) }
  }
  Task {
    for event in events { await bus.send(event) }
  }
  return consumer
}
