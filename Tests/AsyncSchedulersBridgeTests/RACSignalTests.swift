import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Testing

@Suite("RACSignal")
@MainActor
struct RACSignalTests {
  @Test("the seed's example: values, then the block's disposable is disposed; the block runs per subscription")
  func createSignal() {
    let log = Log<String>()
    let signal = RACSignal<Int>.createSignal { subscriber in
      log.append("subscribed")
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      return RACDisposable { log.append("dispose") }
    }
    let disposable = signal.subscribeNext { log.append("\($0 ?? -1)") }
    disposable.dispose()
    #expect(log.values == ["subscribed", "1", "2", "dispose"])
    signal.subscribeCompleted { log.append("completed") }
    #expect(log.values.suffix(3) == ["subscribed", "completed", "dispose"])
  }

  @Test("disposing the subscription disposes what the block returned, exactly once, and stops delivery")
  func disposeSubscription() {
    let disposals = Log<Int>()
    let subscriberBox = Log<any RACSubscriber>()
    let signal = RACSignal<String>.createSignal { subscriber in
      subscriberBox.append(subscriber)
      return RACDisposable { disposals.append(1) }
    }
    let values = Log<String?>()
    let disposable = signal.subscribeNext { values.append($0) }
    subscriberBox.values[0].sendNext("a")
    disposable.dispose()
    disposable.dispose()
    subscriberBox.values[0].sendNext("b")
    subscriberBox.values[0].sendNext(nil)
    #expect(values.values == ["a"])
    #expect(disposals.values == [1])
  }

  @Test("return, empty, error and never, with every subscribe spelling")
  func constructors() {
    let log = Log<String>()
    RACSignal<Int>.return(5).subscribeNext({ log.append("next \($0!)") }, completed: { log.append("completed") })
    RACSignal<Int>.empty().subscribeNext(
      { _ in log.append("never") }, error: { _ in log.append("never") }, completed: { log.append("empty completed") })
    RACSignal<Int>.error(NSError(domain: "test", code: 3)).subscribeNext(
      { _ in }, error: { log.append("error \(($0! as NSError).code)") })
    RACSignal<Int>.error(nil).subscribeError { log.append("error nil: \($0 == nil)") }
    let never = RACSignal<Int>.never().subscribeNext { _ in log.append("never") }
    never.dispose()
    #expect(log.values == ["next 5", "completed", "empty completed", "error 3", "error nil: true"])
  }

  @Test("bind merges the signals its block returns, and the stop flag completes the outer signal")
  func bind() {
    let log = Log<String>()
    let signal = RACSignal<Int>.createSignal { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let bound = signal.bind {
      { value, stop in
        if value == 3 { stop.pointee = true }
        return RACSignal<Int>.return(value! * 10)
      }
    }
    bound.subscribeNext({ log.append("\($0!)") }, completed: { log.append("completed") })
    #expect(log.values == ["10", "20", "30", "completed"])
  }

  @Test("a bind block returning nil disposes the source and completes once the signals it returned complete")
  func bindNilStops() {
    let log = Log<String>()
    let source = RACSubject<Int>()
    let inner = RACSubject<Int>()
    let disposed = Log<String>()
    let tracked = RACSignal<Int>.createSignal { subscriber in
      let forwarding = source.subscribeNext({ subscriber.sendNext($0) }, completed: { subscriber.sendCompleted() })
      return RACDisposable {
        disposed.append("source disposed")
        forwarding.dispose()
      }
    }
    let bound = tracked.bind {
      { value, _ in value == 2 ? nil : inner }
    }
    bound.subscribeNext({ log.append("\($0!)") }, completed: { log.append("completed") })
    source.sendNext(1)
    inner.sendNext(10)
    source.sendNext(2)
    #expect(disposed.values == ["source disposed"])
    source.sendNext(3)
    inner.sendNext(20)
    #expect(log.values == ["10", "20"])
    inner.sendCompleted()
    #expect(log.values == ["10", "20", "completed"])
  }

  @Test("after a bound signal errors, no later value is bound")
  func bindStopsBindingAfterAnError() {
    struct Failure: Error {}
    let bound = Log<Int>()
    let log = Log<String>()
    let source = RACSignal<Int>.createSignal { subscriber in
      for value in 1...3 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    source.bind {
      { value, _ in
        bound.append(value!)
        return value == 1 ? RACSignal<Int>.error(Failure()) : RACSignal<Int>.return(value)
      }
    }.subscribeNext({ log.append("\($0!)") }, error: { _ in log.append("error") })
    #expect(bound.values == [1])
    #expect(log.values == ["error"])
  }

  @Test("map, filter, flattenMap, take, concat and merge")
  func operators() {
    let log = Log<String>()
    let numbers = RACSignal<Int>.createSignal { subscriber in
      for value in 1...4 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    numbers.map { "v\($0!)" }.filter { $0 != "v2" }.take(2).subscribeNext { log.append($0!) }
    numbers.flattenMap { value in value! % 2 == 0 ? RACSignal<Int>.return(value! * 100) : nil }.subscribeNext {
      log.append("\($0!)")
    }
    RACSignal<Int>.return(1).concat(.return(2)).merge(.return(3)).subscribeNext { log.append("c\($0!)") }
    #expect(log.values == ["v1", "v3", "200", "400", "c1", "c2", "c3"])
  }

  @Test("a subject that completes or errors disposes its subscriptions to other signals, also later ones")
  func subjectDisposesItsSubscriptions() {
    let disposals = Log<String>()
    func source(_ name: String) -> RACSignal<Int> {
      RACSignal<Int>.createSignal { _ in RACDisposable { disposals.append(name) } }
    }
    let subject = RACSubject<Int>()
    source("first").subscribe(subject)
    source("second").subscribe(subject)
    #expect(disposals.values.isEmpty)
    subject.sendCompleted()
    #expect(disposals.values.sorted() == ["first", "second"])
    source("after the end").subscribe(subject)
    #expect(disposals.values.last == "after the end")
    let failing = RACSubject<Int>()
    source("before the error").subscribe(failing)
    failing.sendError(nil)
    #expect(disposals.values.last == "before the error")
  }

  @Test("a subject is a subscriber: subscribing it to a signal forwards the events")
  func subscribeSubscriber() {
    let log = Log<String>()
    let subject = RACSubject<Int>()
    subject.subscribeNext({ log.append("\($0!)") }, completed: { log.append("completed") })
    RACSignal<Int>.return(7).subscribe(subject)
    #expect(log.values == ["7", "completed"])
  }

  @Test("subjects: plain, replaying (bounded and unbounded) and behavior")
  func subjects() {
    let log = Log<String>()
    let plain = RACSubject<Int>()
    plain.sendNext(1)
    plain.subscribeNext { log.append("plain \($0!)") }
    plain.sendNext(2)
    let replay = RACReplaySubject<Int>(capacity: 1)
    replay.sendNext(1)
    replay.sendNext(2)
    replay.subscribeNext { log.append("replay \($0!)") }
    let all = RACReplaySubject<Int>()
    all.sendNext(1)
    all.sendNext(2)
    all.sendCompleted()
    all.subscribeNext({ log.append("all \($0!)") }, completed: { log.append("all completed") })
    let behavior = RACBehaviorSubject<String>(defaultValue: "default")
    behavior.subscribeNext { log.append("behavior \($0 ?? "nil")") }
    behavior.sendNext(nil)
    #expect(
      log.values == ["plain 2", "replay 2", "all 1", "all 2", "all completed", "behavior default", "behavior nil"])
  }
}

@Suite("RACSignal subscription scheduler")
struct RACSignalSubscriptionSchedulerTests {
  @Test(
    "a createSignal block subscribed off any scheduler runs later on RAC's background subscription scheduler, which is current"
  )
  func offSchedulerSubscriptionIsAsynchronous() async {
    let log = Log<String>()
    let done = Latch()
    let signal = RACSignal<Int>.createSignal { subscriber in
      log.append("current set: \(RACScheduler.current() != nil)")
      subscriber.sendNext(1)
      subscriber.sendCompleted()
      return nil
    }
    // A Dispatch thread: no scheduler is current there.
    DispatchQueue.global().async {
      signal.subscribeNext({ log.append("next \($0!)") }, completed: { done.signal() })
      log.append("subscribe returned")
    }
    #expect(await done.wait())
    #expect(log.values.contains("current set: true"))
    #expect(log.values.firstIndex(of: "subscribe returned")! < log.values.firstIndex(of: "next 1")!)
  }

  @Test("on a scheduler, a createSignal block runs at once and sees that scheduler as current")
  func onSchedulerSubscriptionIsInline() async {
    let scheduler = RACScheduler(priority: .default, name: "subscribing")
    let log = Log<String>()
    let done = Latch()
    let signal = RACSignal<Int>.createSignal { subscriber in
      log.append("current is the subscribing scheduler: \(RACScheduler.current() === scheduler)")
      subscriber.sendNext(1)
      return nil
    }
    scheduler.schedule {
      signal.subscribeNext { log.append("next \($0!)") }
      log.append("subscribe returned")
      done.signal()
    }
    #expect(await done.wait())
    #expect(log.values == ["current is the subscribing scheduler: true", "next 1", "subscribe returned"])
  }
}

@Suite("RACSignal on schedulers")
@MainActor
struct RACSignalSchedulingTests {
  @Test("deliver(on:) forwards every event, in order, through the scheduler; subscribe(on:) subscribes there")
  func deliverAndSubscribeOn() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    let signal = RACSignal<Int>.createSignal { subscriber in
      log.append("subscribed on test scheduler: \(RACScheduler.current() === scheduler)")
      subscriber.sendNext(1)
      subscriber.sendCompleted()
      return nil
    }
    signal.subscribe(on: scheduler).subscribeNext { log.append("next \($0!)") }
    signal.deliver(on: scheduler).subscribeNext(
      { log.append("delivered \($0!) on scheduler: \(RACScheduler.current() === scheduler)") },
      completed: { log.append("delivered completed") })
    #expect(log.values == ["subscribed on test scheduler: false"])
    scheduler.stepAll()
    #expect(
      log.values == [
        "subscribed on test scheduler: false", "subscribed on test scheduler: true", "next 1",
        "delivered 1 on scheduler: true", "delivered completed",
      ])
  }

  @Test("deliver(on:) schedules one block per event, so a RACTestScheduler delivers one event per step")
  func deliverOnePerStep() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    let signal = RACSignal<Int>.createSignal { subscriber in
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      return nil
    }
    signal.deliver(on: scheduler).subscribeNext({ log.append("\($0!)") }, completed: { log.append("completed") })
    scheduler.step()
    #expect(log.values == ["1"])
    scheduler.step()
    #expect(log.values == ["1", "2"])
    scheduler.step()
    #expect(log.values == ["1", "2", "completed"])
  }

  @Test("deliverOnMainThread delivers at once on the main thread when nothing waits, else through the main queue")
  @MainActor
  func deliverOnMainThreadInline() async {
    let subject = RACSubject<Int>()
    let log = Log<String>()
    let done = Latch()
    subject.deliverOnMainThread().subscribeNext { value in
      log.append("\(value!) on main: \(MainActorScheduler.isOnMainQueue)")
      if value == 2 { done.signal() }
    }
    subject.sendNext(1)
    #expect(log.values == ["1 on main: true"])
    DispatchQueue.global().async { subject.sendNext(2) }
    #expect(await done.wait())
    #expect(log.values == ["1 on main: true", "2 on main: true"])
  }

  @Test(
    "delay and throttle time each value on the scheduler current when it arrives: a RACTestScheduler's, for values sent from its blocks"
  )
  func delayAndThrottle() {
    let scheduler = RACTestScheduler()
    let subject = RACSubject<Int>()
    let log = Log<String>()
    // Subscribed outside the test scheduler: what times a value is the scheduler it arrives on.
    subject.delay(1).subscribeNext { log.append("delayed \($0!) at \(scheduler.testScheduler.now.offset)") }
    subject.throttle(0.5).subscribeNext { log.append("throttled \($0!) at \(scheduler.testScheduler.now.offset)") }
    scheduler.schedule { subject.sendNext(1) }
    scheduler.step()
    scheduler.testScheduler.advance(by: .milliseconds(200))
    scheduler.schedule { subject.sendNext(2) }
    scheduler.stepAll()
    #expect(
      log.values == [
        "throttled 2 at 0.7 seconds", "delayed 1 at 1.0 seconds", "delayed 2 at 1.2 seconds",
      ])
  }

  @Test("buffer(withTime:on:) sends arrays; interval sends the scheduler's dates; timeout fails with RAC's error")
  func bufferIntervalTimeout() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    let subject = RACSubject<Int>()
    subject.buffer(withTime: 1, on: scheduler).subscribeNext { log.append("batch \($0!.map { $0! })") }
    subject.sendNext(1)
    subject.sendNext(2)
    let start = Date()
    let ticks = RACSignal<Date>.interval(2, on: scheduler).subscribeNext { date in
      log.append("tick \(Int((date!.timeIntervalSince(start)).rounded()))")
    }
    RACSignal<Int>.never().timeout(3, on: scheduler).subscribeError { error in
      let error = error! as NSError
      log.append("timeout \(error.domain) \(error.code)")
    }
    scheduler.testScheduler.advance(by: .seconds(4))
    ticks.dispose()
    #expect(log.values == ["batch [1, 2]", "tick 2", "timeout RACSignalErrorDomain 1", "tick 4"])
  }

  @Test("startLazily runs its block once, at the first subscription, on the scheduler; startEagerly at once")
  func startLazilyAndEagerly() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    let lazy = RACSignal<Int>.startLazily(with: scheduler) { subscriber in
      log.append("lazy block")
      subscriber.sendNext(1)
      subscriber.sendCompleted()
    }
    scheduler.stepAll()
    #expect(log.values.isEmpty)
    lazy.subscribeNext { log.append("first \($0!)") }
    lazy.subscribeNext { log.append("second \($0!)") }
    scheduler.stepAll()
    _ = RACSignal<Int>.startEagerly(with: scheduler) { _ in log.append("eager block") }
    scheduler.stepAll()
    #expect(log.values == ["lazy block", "first 1", "second 1", "eager block"])
  }
}

@Suite("RACSignal bad input")
struct RACSignalBadInputTests {
  @Test("negative intervals and counts fail with a message naming the operator")
  func negativeSeconds() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RACSignal<Int>.never().delay(-1)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "delay: interval must be finite and not negative (got -1.0)"))
  }

  @Test("an NSArray element that is not a signal stops combineLatest, zip and merge, naming the index and type")
  func nonSignalInArray() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RACSignal.combineLatest([RACSignal<Int>.never(), "not a signal"] as NSArray)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "RACSignal.combineLatest: element 1 of the array is a"))
  }

  @Test("combineLatest of an NSArray where a signal of a class other than RACTuple is expected stops, naming both")
  func tuplesWhereAnotherClassIsExpected() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let combined: RACSignal<NSNumber> = RACSignal.combineLatest([RACSignal<Int>.never()] as NSArray)
      _ = combined
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "RACSignal.combineLatest: the values are RACTuples, which are not NSNumber"))
  }

  @Test("merge of an NSArray where a signal of one class is expected stops at a value of another, naming both")
  func mergedValueOfAnotherClass() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let merged: RACSignal<NSNumber> = RACSignal.merge([RACSignal<String>.return("text")] as NSArray)
      let scheduler = RACTestScheduler()
      _ = scheduler.schedule { _ = merged.subscribeNext { _ in } }
      scheduler.stepAll()
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "RACSignal.merge: a String was sent where the signal's values are NSNumber"))
  }

  @Test("A repeating interval beyond 64-bit nanoseconds names the selector, the interval and its value")
  func hugeRepeatingInterval() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RACScheduler().after(Date(), repeatingEvery: 1e300, withLeeway: 0) {}
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "after:repeatingEvery:withLeeway:schedule: interval must be greater than 0 and less than"))
  }
}
