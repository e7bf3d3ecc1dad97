/// How a real-time scheduler trades CPU time for punctuality.
///
/// The default, ``efficient``, never spins: a worker out of work gives its thread back at once, and
/// timers are waited for in the kernel by the one alarm thread, honouring each timer's leeway so that
/// timers whose windows overlap share one wake-up. Nothing runs while nothing is due.
///
/// ``lowLatency`` is for the few who need timers microseconds late rather than a thread wake-up
/// late (tens to hundreds of microseconds), and pay for it in CPU time and energy: a worker that
/// drained the queue keeps its thread for a short while watching for more, and a timer about to fall
/// due is handed to a worker that spins to its deadline (see the README's "Performance and energy"
/// section for what each mode costs and gives on a measured machine). Spinning is bounded: at most
/// half the processors spin at once, process-wide, and a spin never lasts longer than the timer
/// window or the linger time. It applies only to schedulers on Dispatch's global queues; a scheduler
/// on your own target queue, and the main-actor scheduler, never spin.
public enum SchedulerLatencyMode: Sendable, Hashable {
  /// Never spin; wait for timers in the kernel, honouring leeway (the default).
  case efficient
  /// Spin briefly after draining and before imminent timers, at a CPU cost (opt-in).
  case lowLatency
}
