import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersTesting
import AsyncSignals
import Dispatch
import Foundation

/// Signals: the three uses (iterate, subscribe, operators on schedulers), one pipeline on real
/// schedulers and the same pipeline on virtual time, and the RAC and Rx spellings.
enum SignalsDemo {
  static func run() async {
    await iterate()
    subscribe()
    await pipelineOnRealSchedulers()
    pipelineOnVirtualTime()
    racSignal()
    rxOperators()
  }

  static func iterate() async {
    // snippet: signal-iterate
    let numbers = Signal<Int, Never> { observer in
      for value in 1...3 { observer.send(value) }
      observer.finish()
      return AnyDisposable { print("  subscription disposed") }
    }
    for await number in numbers { print("  got \(number)") }  // subscribes; the loop ends with the signal
    // Leaving the loop early (or cancelling the task) disposes the subscription, exactly once.
    for await number in numbers.values(buffering: .bufferingNewest(1)) where number == 1 { break }
    // end-snippet
  }

  static func subscribe() {
    // snippet: signal-subscribe
    let subject = SignalSubject<String, Never>()
    let subscription = subject.signal
      .map { $0.uppercased() }
      .subscribe(next: { print("  next \($0)") }, finished: { print("  finished") })
    subject.send("a")
    subject.finish()
    subscription.dispose()  // safe at any time, also from inside a handler
    // end-snippet
  }

  /// The pipeline of both runs: search queries, debounced, de-duplicated, looked up, delivered on `ui`.
  // snippet: signal-pipeline
  static func searchResults(
    queries: Signal<String, Never>, on scheduler: some Scheduler, deliverOn ui: some Scheduler
  ) -> Signal<String, Never> {
    queries
      .debounce(for: .milliseconds(300), on: scheduler)
      .distinctUntilChanged()
      .flatMap { query in .just("results for \(query)") }
      .observe(on: ui)
  }
  // end-snippet

  static func pipelineOnRealSchedulers() async {
    let background = SerialScheduler(name: "search")
    let ui = SerialScheduler(name: "ui")
    // A replaying subject: the keystrokes reach the pipeline whenever the task subscribes.
    let queries = ReplaySignalSubject<String, Never>()
    let results = searchResults(queries: queries.signal, on: background, deliverOn: ui)
    queries.send("sw")
    queries.send("swift")
    let task = Task(executorPreference: ui) {
      for await result in results { return result }
      return "none"
    }
    print("  real time: \(await task.value)")
  }

  static func pipelineOnVirtualTime() {
    // snippet: signal-virtual-time
    let scheduler = TestScheduler()
    let queries = SignalSubject<String, Never>()
    let recorder = TestRecorder<String>(scheduler: scheduler)
    searchResults(queries: queries.signal, on: scheduler, deliverOn: scheduler)
      .subscribe(next: { recorder.record($0) })
    queries.send("sw")
    scheduler.advance(by: .milliseconds(100))
    queries.send("swift")
    scheduler.advance(by: .milliseconds(300))  // exactly 300 ms after the last keystroke
    recorder.expect([.value("results for swift", at: SchedulerInstant(offset: .milliseconds(400)))])
    // end-snippet
    print("  virtual time: \(recorder.events)")
  }

  static func racSignal() {
    // snippet: signal-rac
    let signal = RACSignal<NSNumber>.createSignal { subscriber in
      subscriber.sendNext(NSNumber(value: 1))
      subscriber.sendNext(NSNumber(value: 2))
      subscriber.sendCompleted()
      return RACDisposable { print("  dispose") }
    }
    signal.map { ($0?.intValue ?? 0) * 10 }
      .deliver(on: RACScheduler.immediate())
      .subscribeNext({ print("  \($0 ?? 0)") }, completed: { print("  completed") })
    // end-snippet
  }

  static func rxOperators() {
    let scheduler = TestScheduler()
    let source = SignalSubject<Int, Never>()
    let signal = source.signal
    let other = SerialScheduler(name: "other")
    // snippet: signal-rx-operators
    _ = signal.observe(on: scheduler)  // observeOn(scheduler)
    _ = signal.subscribe(on: other)  // subscribeOn(scheduler)
    // Observable.interval(.seconds(1), scheduler:)
    _ = Signal<SchedulerInstant, Never>.interval(.seconds(1), on: scheduler)
    // Observable.timer(_:period:scheduler:)
    _ = Signal<Int, Never>.timer(after: .seconds(1), period: .seconds(2), on: scheduler)
    _ = signal.delay(.milliseconds(200), on: scheduler)  // delay(_:scheduler:)
    _ = signal.throttle(for: .milliseconds(500), on: scheduler, latest: true)  // throttle(_:latest:scheduler:)
    _ = signal.debounce(for: .milliseconds(300), on: scheduler)  // debounce(_:scheduler:)
    struct TimedOut: Error {}
    _ = signal.setFailureType(to: TimedOut.self)  // timeout(_:scheduler:), on the whole signal
      .timeout(after: .seconds(5), on: scheduler, failingWith: TimedOut())
    _ = signal.collect(every: .seconds(1), on: scheduler)  // buffer(timeSpan:count:scheduler:)
    // end-snippet
  }
}
