/// How a real-time scheduler trades CPU time for punctuality.
///
/// The default, ``efficient``, never spins: a worker out of work gives its thread back at once, timers
/// are waited for in the kernel by the one timer thread, and each timer's leeway is honoured, so that
/// timers whose windows overlap share one wake-up. Nothing runs while nothing is due. A timer never
/// fires before its deadline; on a quiet machine it fires within its leeway (or, with no leeway,
/// within the system's timer slack) plus the time it takes to wake a thread.
///
/// ``lowLatency`` is for the few who need timers to fire closer to their deadline than a thread
/// wake-up allows, and accept to pay for it in CPU time and energy: a worker that drained the queue
/// keeps its thread for a short, bounded while, watching for more, and a timer about to fall due is
/// handed to a worker that spins to its deadline. Spinning is bounded: only some of the processors
/// spin at once, process-wide, and a spin never outlasts the window it waits for. It applies only to
/// schedulers on Dispatch's global queues; a scheduler on your own target queue, and the main-actor
/// scheduler, never spin. <doc:Performance> gives what each mode costs and gives on a measured
/// machine.
public enum SchedulerLatencyMode: Sendable, Hashable {
  /// Never spin; wait for timers in the kernel, honouring leeway (the default).
  case efficient
  /// Spin briefly after draining and before imminent timers, at a CPU cost (opt-in).
  case lowLatency
}
