/// A scheduler that actors can live on: it provides a serial executor whose jobs run in the same FIFO
/// as the scheduler's callback jobs.
///
/// Write features against it, so production passes a ``SerialScheduler`` (or the ``MainActorScheduler``)
/// and tests pass a virtual-time `TestScheduler`:
///
/// ```swift
/// actor Feature {
///   let scheduler: any ActorScheduler
///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
///   init(scheduler: any ActorScheduler) { self.scheduler = scheduler }
/// }
/// ```
/// The actor must keep its scheduler alive (store it), as with every custom executor.
public protocol ActorScheduler: Scheduler {
  /// The serial executor for actors bound to this scheduler.
  var unownedSerialExecutor: UnownedSerialExecutor { get }
}

extension SerialScheduler: ActorScheduler {}
extension MainActorScheduler: ActorScheduler {}
