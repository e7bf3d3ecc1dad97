import AsyncSchedulers
import Dispatch
import Synchronization

// snippet: actor-on-scheduler
/// An actor that lives on a serial scheduler: its methods run there, in FIFO order with the
/// scheduler's callback jobs.
actor Inventory {
  let scheduler: SerialScheduler
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
  private var items: [String: Int] = [:]

  init(scheduler: SerialScheduler) { self.scheduler = scheduler }

  func add(_ item: String) -> Int {
    items[item, default: 0] += 1
    return items[item]!
  }
}
// end-snippet

enum SchedulersDemo {
  static func run() async {
    await serial()
    await timeAndTicks()
    await others()
  }

  static func serial() async {
    // snippet: serial-async
    let scheduler = SerialScheduler(name: "inventory", priority: .high)
    let inventory = Inventory(scheduler: scheduler)
    let count = await inventory.add("apple")

    // A task can prefer the scheduler; its `async let` and task-group children stay on it.
    let onScheduler = await Task(executorPreference: scheduler) {
      Schedulers.current === scheduler
    }.value

    // Or run one closure there and get its result.
    let name = try? await scheduler.perform { Schedulers.current?.name }
    // end-snippet
    print("serial: count \(count), task on scheduler: \(onScheduler), perform ran on \(name ?? "?")")
  }

  static func timeAndTicks() async {
    // snippet: time
    let scheduler = SerialScheduler(name: "clock")
    let start = scheduler.now
    try? await scheduler.sleep(for: .milliseconds(20))  // the scheduler is its own Clock

    var ticks = 0
    for await _ in scheduler.ticks(every: .milliseconds(10)) {  // anchored to the start: no drift
      ticks += 1
      if ticks == 3 { break }
    }
    let elapsed = start.duration(to: scheduler.now)
    // end-snippet
    print("time: slept and ticked \(ticks) times in \(elapsed)")
  }

  static func others() async {
    let log = Log()

    // snippet: callbacks
    let serial = SerialScheduler()
    let job = serial.schedule { log.add("runs on the serial scheduler") }
    let timer = serial.scheduleRepeating(every: .milliseconds(5)) { log.add("tick") }
    serial.schedule(after: .milliseconds(12)) { timer.dispose() }  // stops the repeating timer
    _ = job
    // end-snippet

    // Immediate: inline. Trampoline: inline, nested schedules queued after the outer action.
    ImmediateScheduler.shared.schedule { log.add("immediate runs inline") }
    TrampolineScheduler.shared.schedule {
      TrampolineScheduler.shared.schedule { log.add("trampoline: nested runs second") }
      log.add("trampoline: outer runs first")
    }

    // snippet: latency-mode
    // Efficient by default: nothing spins, timers wait in the kernel, and leeway lets timers share a
    // wake-up (this one may fire up to 5 ms late, together with other timers due meanwhile).
    let background = SerialScheduler(name: "sync")
    background.schedule(after: .milliseconds(20), leeway: .milliseconds(5)) { log.add("a timer with leeway fired") }
    // Opt-in, for the few who need timers closer to their deadline than a thread wake-up, at a CPU cost.
    let audio = SerialScheduler(name: "audio", priority: .high, latencyMode: .lowLatency)
    audio.schedule(after: .milliseconds(10)) { log.add("a low-latency timer fired") }
    // end-snippet

    // Concurrent with a limit.
    let pool = ConcurrentScheduler(maxConcurrentJobs: 2)
    let poolDone = await withCheckedContinuation { continuation in
      pool.schedule { continuation.resume(returning: "concurrent scheduler ran a job") }
    }
    log.add(poolDone)

    // Main actor: always asynchronous, or inline when already on the main actor and idle.
    let main = MainActorScheduler(runsInlineWhenIdle: true)
    await withCheckedContinuation { continuation in
      MainActorScheduler.shared.schedule {
        MainActor.assumeIsolated { log.add("main actor scheduler ran on the main actor") }
        main.schedule { log.add("inline on the main actor") }
        continuation.resume()
      }
    }
    try? await serial.sleep(for: .milliseconds(30))
    for line in log.lines { print("  \(line)") }
  }
}

/// A thread-safe log for the demonstrations.
final class Log: Sendable {
  private let storage = Mutex<[String]>([])
  func add(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
}
