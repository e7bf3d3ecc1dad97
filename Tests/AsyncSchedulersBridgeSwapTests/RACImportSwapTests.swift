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
@MainActor
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

extension RACImportSwapTests {
  @Test("combineLatest(with:) sends RACTuples and completes only when both complete, as ReactiveObjC")
  func combineLatestWith() {
    let names = RACSubject<String>()
    let counts = RACSubject<Int>()
    let lines = Lines()
    _ = names.combineLatest(with: counts).subscribeNext(
      { tuple in lines.append("\(tuple?.first as? String ?? "?") \(tuple?.second as? Int ?? -1)") },
      completed: { lines.append("completed") })
    names.sendNext("a")
    counts.sendNext(1)
    names.sendNext("b")
    counts.sendCompleted()
    names.sendNext("c")
    #expect(lines.values == ["a 1", "b 1", "c 1"])
    names.sendCompleted()
    #expect(lines.values.last == "completed")
    // One signal completing without a value does not complete the combination while the other lives.
    let silent = RACSubject<Int>()
    let live = RACSubject<Int>()
    let ended = Lines()
    _ = silent.combineLatest(with: live).subscribeCompleted { ended.append("completed") }
    silent.sendCompleted()
    #expect(ended.values.isEmpty)
    live.sendCompleted()
    #expect(ended.values == ["completed"])
  }

  @Test("combineLatest and zip of an array send one RACTuple per combination, in the array's order")
  func arraysOfSignals() {
    let letters = RACSignal<String>.createSignal { subscriber in
      for letter in ["a", "b", "c"] { subscriber.sendNext(letter) }
      subscriber.sendCompleted()
      return nil
    }
    let lines = Lines()
    _ = RACSignal<String>.zip([letters, letters.map { $0?.uppercased() }, letters]).subscribeNext { tuple in
      lines.append((tuple?.allObjects() ?? []).map { $0 as? String ?? "nil" }.joined())
    }
    #expect(lines.values == ["aAa", "bBb", "cCc"])
    let first = RACSubject<String>()
    let second = RACSubject<String>()
    let combined = Lines()
    _ = RACSignal<String>.combineLatest([first, second]).subscribeNext { tuple in
      combined.append("\(tuple?.count ?? 0):\(tuple?.first as? String ?? "")\(tuple?.last as? String ?? "")")
    }
    first.sendNext("x")
    second.sendNext("y")
    first.sendNext("z")
    #expect(combined.values == ["2:xy", "2:zy"])
    _ = RACSignal<String>.merge([RACSignal<String>.return("m1"), RACSignal<String>.return("m2")]).subscribeNext {
      combined.append($0 ?? "nil")
    }
    #expect(combined.values.suffix(2) == ["m1", "m2"])
  }

  @Test("switchToLatest follows the newest inner signal; flatten merges them; takeUntil stops at the trigger")
  func signalsOfSignals() {
    let outer = RACSubject<RACSignal<Int>>()
    let first = RACSubject<Int>()
    let second = RACSubject<Int>()
    let switched = Lines()
    let merged = Lines()
    _ = outer.switchToLatest().subscribeNext { switched.append("\($0 ?? -1)") }
    _ = outer.flatten().subscribeNext { merged.append("\($0 ?? -1)") }
    outer.sendNext(first)
    first.sendNext(1)
    outer.sendNext(second)
    first.sendNext(2)
    second.sendNext(3)
    #expect(switched.values == ["1", "3"])
    #expect(merged.values == ["1", "2", "3"])
    let stop = RACSubject<Void>()
    let until = Lines()
    _ = second.take(until: stop).subscribeNext(
      { until.append("\($0 ?? -1)") }, completed: { until.append("completed") })
    second.sendNext(4)
    stop.sendNext(())
    second.sendNext(5)
    #expect(until.values == ["4", "completed"])
  }

  @Test("distinctUntilChanged, scanWithStart and materialize/dematerialize keep RAC's spellings and meaning")
  func eventsAndScans() {
    struct Failure: Error {}
    let values = RACSignal<Int>.createSignal { subscriber in
      for value in [1, 1, 2, 2, 3] { subscriber.sendNext(value) }
      subscriber.sendError(Failure())
      return nil
    }
    let lines = Lines()
    _ = values.distinctUntilChanged().scan(withStart: 0) { ($0 ?? 0) + ($1 ?? 0) }.subscribeNext {
      lines.append("sum \($0 ?? -1)")
    }
    _ = values.materialize().subscribeNext(
      { lines.append("\($0?.description ?? "nil")") }, completed: { lines.append("materialized") })
    _ = values.materialize().dematerialize().subscribeNext(
      { _ in }, error: { lines.append("error back: \($0 is Failure)") })
    #expect(
      lines.values == [
        "sum 1", "sum 3", "sum 6", "next(1)", "next(1)", "next(2)", "next(2)", "next(3)",
        "error(Failure())", "materialized", "error back: true",
      ])
  }

  @Test("first, toArray and waitUntilCompleted block until the signal answers, on its own thread")
  func blockingAccessors() throws {
    struct Failure: Error {}
    let scheduler = RACScheduler(priority: .default, name: "blocking")
    let numbers = RACSignal<Int>.createSignal { subscriber in
      scheduler.schedule {
        for value in 1...3 { subscriber.sendNext(value) }
        subscriber.sendCompleted()
      }
    }
    #expect(numbers.first() == 1)
    #expect(numbers.toArray()?.map { $0 ?? -1 } == [1, 2, 3])
    try numbers.waitUntilCompleted()
    let failing = RACSignal<Int>.error(Failure())
    #expect(failing.first() == nil)
    #expect(failing.toArray() == nil)
    #expect(failing.firstOrDefault(7).value == 7)
    #expect(throws: Failure.self) { try failing.waitUntilCompleted() }
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

/// A scanner as ReactiveObjC-era Swift wrote it (LANScan-iOS's `LANScanner`): untyped signals gathered
/// in an array, combined through `NSArray`, and `RACSignal()` for "nothing to scan".
final class HostScanner: @unchecked Sendable {  // @unchecked: only `let`s of Sendable types
  func ping(_ host: String) -> RACSignal<Bool> {
    RACSignal<Bool>.createSignal { subscriber in
      subscriber.sendNext(host.hasSuffix(".1"))
      subscriber.sendCompleted()
      return nil
    }
  }

  func name(_ host: String) -> RACSignal<String> { RACSignal<String>.return("host-\(host)") }

  func scan(_ hosts: [String]) -> RACSignal<RACTuple> {
    guard let host = hosts.first else { return RACSignal.combineLatest(NSArray()) }
    let signals = NSMutableArray()
    signals.add(ping(host))
    signals.add(name(host))
    return RACSignal.combineLatest(signals as NSArray)
  }

  func nothing() -> RACSignal<any Sendable> { RACSignal() }
}

extension RACImportSwapTests {
  @Test("untyped code combines an NSArray of signals of different value types, and RACSignal() never sends")
  func untypedSignals() {
    let scanner = HostScanner()
    let results = Lines()
    let scheduler = RACTestScheduler()
    scheduler.schedule {
      scanner.scan(["10.0.0.1"]).subscribeNext { tuple in
        results.append("\(tuple?.first as? Bool ?? false) \(tuple?.second as? String ?? "")")
      }
      RACSignal.zip([scanner.ping("a"), scanner.ping("b.1")] as NSArray).subscribeNext { tuple in
        results.append("zip \(tuple?.count ?? 0)")
      }
      RACSignal.merge([scanner.ping("a"), scanner.name("b")] as NSArray).subscribeNext { value in
        results.append("merge \(value.map { "\($0)" } ?? "nil")")
      }
      scanner.nothing().subscribeNext { _ in
        results.append("never")
      } completed: {
        results.append("completed")
      }
    }
    scheduler.stepAll()
    #expect(results.values == ["true host-10.0.0.1", "zip 2", "merge false", "merge host-b"])
  }
}

/// LANScan-iOS's scanner as it is written, results declared `RACSignal<AnyObject>`: `RACSignal()` when
/// there is nothing to scan, `+combineLatest:`/`+zip:`/`+merge:` of an `NSArray` returned as is.
final class ObjectScanner: @unchecked Sendable {  // @unchecked: no stored state
  func ping(_ host: String) -> RACSignal<AnyObject> {
    RACSignal<AnyObject>.createSignal { subscriber in
      subscriber.sendNext(host.hasSuffix(".1") ? "up" as AnyObject : "down" as AnyObject)
      subscriber.sendCompleted()
      return nil
    }
  }

  func scan(_ hosts: [String]) -> RACSignal<AnyObject> {
    if hosts.isEmpty { return RACSignal() }
    let signals = NSMutableArray()
    for host in hosts { signals.add(ping(host)) }
    return RACSignal.combineLatest(signals as NSArray)
  }

  func pairs(_ hosts: [String]) -> RACSignal<AnyObject> {
    RACSignal.zip(hosts.map { ping($0) } as NSArray)
  }

  func each(_ hosts: [String]) -> RACSignal<AnyObject> {
    RACSignal.merge(hosts.map { ping($0) } as NSArray)
  }
}

extension RACImportSwapTests {
  @Test("a scanner returning RACSignal<AnyObject> combines an NSArray and returns RACSignal() as it is written")
  func objectSignals() {
    let scanner = ObjectScanner()
    let results = Lines()
    let scheduler = RACTestScheduler()
    scheduler.schedule {
      scanner.scan(["10.0.0.1", "10.0.0.2"]).subscribeNext { value in
        let tuple = value as? RACTuple
        results.append("scan \(tuple?.first as? String ?? "?") \(tuple?.second as? String ?? "?")")
      }
      scanner.pairs(["a.1", "b"]).subscribeNext { value in
        results.append("zip \((value as? RACTuple)?.count ?? 0)")
      }
      scanner.each(["a.1", "b"]).subscribeNext { value in
        results.append("merge \(value as? String ?? "?")")
      }
      scanner.scan([]).subscribeNext { _ in
        results.append("never")
      } completed: {
        results.append("completed")
      }
    }
    scheduler.stepAll()
    #expect(results.values == ["scan up down", "zip 2", "merge up", "merge down"])
  }
}
