/// The former public base class of ``SerialScheduler``, ``MainActorScheduler`` and
/// ``ConcurrentScheduler``; they are now final types with an internal engine.
@available(
  *, deprecated,
  message: "Use `any Scheduler`, or the concrete SerialScheduler, MainActorScheduler or ConcurrentScheduler"
)
public typealias WorkQueueScheduler = any Scheduler
