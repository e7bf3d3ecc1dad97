// ReactiveObjC-era Swift with `import ReactiveObjC` swapped for the bridge (and its test module) and
// nothing else imported, in Swift 5 mode like that code: Foundation comes with the bridge, as it came
// with ReactiveObjC. If a name such code uses stops being visible, this target stops compiling.
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import Testing

/// A service as ReactiveObjC-era Swift wrote it: a background scheduler, signals of Foundation values.
final class FeedService: @unchecked Sendable {  // @unchecked: only `let`s of Sendable types
  let scheduler = RACScheduler(priority: .background, name: "feed")

  /// Titles from an `NSArray` (Foundation came with the import): bridged to Swift strings first, since
  /// `NSArray` and `NSString` are not `Sendable` and the signal's values cross threads.
  func titles(from items: NSArray) -> RACSignal<String> {
    let titles = items.compactMap { $0 as? String }
    return RACSignal<String>.createSignal { subscriber in
      for title in titles { subscriber.sendNext(title) }
      subscriber.sendCompleted()
      return nil
    }
  }

  /// Heterogeneous values, as `RACSignal<AnyObject>` carried them: `any Sendable`, cast on receipt.
  func mixed() -> RACSignal<any Sendable> {
    RACSignal<any Sendable>.createSignal { subscriber in
      subscriber.sendNext(NSNumber(value: 1))
      subscriber.sendNext("two")
      subscriber.sendCompleted()
      return nil
    }
  }
}

@Suite("ReactiveObjC code after swapping the import")
struct RACImportSwapTests {
  @Test("Foundation comes with the bridge, and signals of Foundation values and of any Sendable work")
  func foundationAndSignals() {
    let service = FeedService()
    let titles = Lines()
    _ = service.titles(from: ["a", "b"] as NSArray).subscribeNext { title in
      if let title { titles.append(title) }
    }
    #expect(titles.values == ["a", "b"])
    let kinds = Lines()
    _ = service.mixed().subscribeNext { value in
      kinds.append(value is NSNumber ? "number" : value is String ? "string" : "other")
    }
    #expect(kinds.values == ["number", "string"])
  }

  @Test("RACScheduler, RACDisposable and RACTestScheduler keep their spellings")
  func schedulersAndDisposables() {
    let scheduler = RACTestScheduler()
    let ran = Lines()
    let compound = RACCompoundDisposable()
    compound.add(scheduler.schedule { ran.append("now") })
    compound.add(scheduler.afterDelay(1) { ran.append("later") })
    let cancelled = scheduler.afterDelay(2) { ran.append("never") }
    cancelled?.dispose()
    scheduler.stepAll()
    #expect(ran.values == ["now", "later"])
    compound.dispose()
    #expect(compound.isDisposed)
  }
}

extension RACImportSwapTests {
  @Test("RAC's sequencing, aggregating, side-effect and error operators, in their Swift spellings")
  func operators() {
    let numbers = RACSignal<Int>.createSignal { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let lines = Lines()
    _ = numbers.startWith(0).skip(1).takeWhileBlock { ($0 ?? 0) < 5 }.skipWhileBlock { ($0 ?? 0) < 2 }
      .doNext { lines.append("saw \($0 ?? -1)") }
      .collect()
      .subscribeNext { lines.append("collected \(($0 ?? []).map { $0 ?? -1 })") }
    _ = numbers.aggregate(withStart: 100) { ($0 ?? 0) + ($1 ?? 0) }.subscribeNext { lines.append("sum \($0 ?? -1)") }
    _ = numbers.ignoreValues().then { RACSignal<String>.return("then") }
      .doCompleted { lines.append("completed") }
      .subscribeNext { lines.append($0 ?? "nil") }
    #expect(
      lines.values == ["saw 2", "saw 3", "saw 4", "collected [2, 3, 4]", "sum 115", "then", "completed"])
  }

  @Test("catch, catchTo and retry recover from errors as ReactiveObjC does (retry(0) retries until it completes)")
  func recovering() {
    struct Failure: Error {}
    let attempts = Lines()
    let flaky = RACSignal<Int>.createSignal { subscriber in
      attempts.append("attempt")
      if attempts.values.count < 4 {
        subscriber.sendError(Failure())
      } else {
        subscriber.sendNext(4)
        subscriber.sendCompleted()
      }
      return nil
    }
    let lines = Lines()
    _ = flaky.retry(0).subscribeNext { lines.append("retried to \($0 ?? -1)") }
    _ = RACSignal<Int>.error(Failure()).doError { _ in lines.append("error seen") }
      .catch { _ in RACSignal<Int>.return(9) }.subscribeNext { lines.append("caught \($0 ?? -1)") }
    _ = RACSignal<Int>.error(Failure()).catch(to: RACSignal<Int>.return(8)).subscribeNext {
      lines.append("caught to \($0 ?? -1)")
    }
    #expect(lines.values == ["retried to 4", "error seen", "caught 9", "caught to 8"])
    #expect(attempts.values.count == 4)
  }
}

extension RACImportSwapTests {
  @Test("sample resends the latest value at every tick and completes with either signal, as ReactiveObjC")
  func sample() {
    let values = RACSubject<Int>()
    let sampler = RACSubject<String>()
    let lines = Lines()
    _ = values.sample(sampler).subscribeNext({ lines.append("\($0 ?? -1)") }, completed: { lines.append("completed") })
    sampler.sendNext("ignored: no value yet")
    values.sendNext(1)
    sampler.sendNext("tick")
    sampler.sendNext("tick again")
    values.sendNext(2)
    values.sendNext(3)
    sampler.sendNext("tick")
    values.sendCompleted()
    sampler.sendNext("after the end")
    #expect(lines.values == ["1", "1", "3", "completed"])
  }

  @Test("replay subscribes at once and replays all; replayLast the last; replayLazily at the first subscriber")
  func replay() {
    let subscriptions = Lines()
    let numbers = RACSignal<Int>.createSignal { subscriber in
      subscriptions.append("subscribed")
      for value in 1...3 { subscriber.sendNext(value) }
      return nil
    }
    let all = numbers.replay()
    let last = numbers.replayLast()
    let lazy = numbers.replayLazily()
    #expect(subscriptions.values.count == 2)
    let lines = Lines()
    _ = all.subscribeNext { lines.append("all \($0 ?? -1)") }
    _ = last.subscribeNext { lines.append("last \($0 ?? -1)") }
    _ = lazy.subscribeNext { lines.append("lazy \($0 ?? -1)") }
    _ = lazy.subscribeNext { lines.append("lazy again \($0 ?? -1)") }
    #expect(subscriptions.values.count == 3)
    #expect(
      lines.values == [
        "all 1", "all 2", "all 3", "last 3", "lazy 1", "lazy 2", "lazy 3", "lazy again 1", "lazy again 2",
        "lazy again 3",
      ])
  }
}

/// Lines from any thread (the blocks are `@Sendable`, as in Swift 6).
final class Lines: @unchecked Sendable {
  // Why @unchecked Sendable: `lines` is only touched under `lock`.
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var values: [String] { lock.withLock { lines } }
}
