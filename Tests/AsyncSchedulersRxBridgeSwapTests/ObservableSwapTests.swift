// RxSwift Observable code as apps have it, with `import RxSwift` and `import RxRelay` swapped for the
// bridge and nothing else of this package imported, in Swift 5 mode.
import AsyncSchedulersRxBridge
import Dispatch
import Foundation
import Testing

/// A view model written the RxSwift way: relays in, observables out, a dispose bag, `self` captured
/// weakly in non-`Sendable` closures (Swift 5 mode). Closures that mutate a captured local `var` get
/// Swift 6's data-race warning in Swift 5 mode (the bridge's closures are `@Sendable`), so state lives
/// in objects, as here.
final class LoginViewModel {
  let username = BehaviorRelay<String>(value: "")
  let password = BehaviorRelay<String>(value: "")
  let loginTaps = PublishSubject<Void>()
  private(set) var attempts: [String] = []
  private let disposeBag = DisposeBag()

  var isValid: Observable<Bool> {
    Observable.combineLatest(username.asObservable(), password.asObservable()) { user, password in
      !user.isEmpty && password.count >= 4
    }
    .distinctUntilChanged()
  }

  init() {
    loginTaps
      .withLatestFrom(isValid)
      .filter { $0 }
      .withLatestFrom(username.asObservable())
      .subscribe(onNext: { [weak self] user in self?.attempts.append(user) })
      .disposed(by: disposeBag)
  }
}

/// A search model as Rx-era code had it: the query debounced on the scheduler it is given, so tests hand
/// it a `HistoricalScheduler` and drive time themselves, with no RxTest.
final class SearchModel {
  let query = PublishSubject<String>()
  private(set) var searches: [String] = []
  private let disposeBag = DisposeBag()

  init(scheduler: any SchedulerType) {
    query
      .debounce(.milliseconds(300), scheduler: scheduler)
      .distinctUntilChanged()
      .subscribe(onNext: { [weak self] text in self?.searches.append(text) })
      .disposed(by: disposeBag)
  }
}

/// A lock-guarded list, for values delivered on other threads.
final class Received<Element> {
  private let lock = NSLock()
  private var items: [Element] = []
  func append(_ item: Element) { lock.withLock { items.append(item) } }
  var values: [Element] { lock.withLock { items } }
}

@Suite("RxSwift Observable code after swapping the import")
struct ObservableSwapTests {
  @Test("A view model of relays and subjects validates and logs in, as under RxSwift")
  func viewModel() {
    let model = LoginViewModel()
    let validity = Received<Bool>()
    let bag = DisposeBag()
    model.isValid.subscribe(onNext: { validity.append($0) }).disposed(by: bag)
    model.loginTaps.onNext(())
    model.username.accept("ada")
    model.password.accept("secret")
    model.loginTaps.onNext(())
    #expect(validity.values == [false, true])
    #expect(model.attempts == ["ada"])
  }

  @Test("Seed 003's chain hops to a background scheduler and back, in order")
  func seed003Chain() async {
    let backgroundScheduler = SerialDispatchQueueScheduler(qos: .default)
    let otherScheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
    let received = Received<String>()
    let done = DispatchSemaphore(value: 0)
    let subscription = Observable.of(1, 2, 3)
      .observeOn(backgroundScheduler)
      .map { n in "background \(n)" }
      .observeOn(otherScheduler)
      .map { text in text.replacingOccurrences(of: "background", with: "other") }
      .subscribe(onNext: { received.append($0) }, onCompleted: { done.signal() })
    // Real threads are the point here: wait for the completion, with a generous bound.
    await withCheckedContinuation { continuation in
      DispatchQueue(label: "seed003 waiter").async {
        _ = done.wait(timeout: .now() + 60)
        continuation.resume()
      }
    }
    subscription.dispose()
    #expect(received.values == ["other 1", "other 2", "other 3"])
  }

  @Test("Subjects, traits and operators keep RxSwift's spellings")
  func spellings() {
    let log = Received<String>()
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    subject.onNext(1)
    subject.onNext(2)
    _ = subject.scan(0) { $0 + $1 }.subscribe(onNext: { log.append("sum \($0)") })
    _ = Single.just(3).subscribe(onSuccess: { log.append("single \($0)") })
    _ = Observable.from([1, 2, 3]).toArray().subscribe(onSuccess: { log.append("array \($0)") })
    _ = Observable<Int>.error(RxError.timeout).catchAndReturn(0).subscribe { event in
      log.append("\(event)")
    }
    #expect(log.values == ["sum 1", "sum 3", "single 3", "array [1, 2, 3]", "next(0)", "completed"])
  }

  @Test("Infallible code keeps RxSwift 6's spellings: a failing request shown as a fallback title")
  func infallible() {
    let titles = Received<String>()
    let disposeBag = DisposeBag()
    let request = Observable<String>.error(RxError.timeout)
    request
      .asInfallible(onErrorJustReturn: "Offline")
      .map { "Title: \($0)" }
      .subscribe(onNext: { titles.append($0) }, onCompleted: { titles.append("done") })
      .disposed(by: disposeBag)
    Infallible<Int>.create { observer in
      observer(.next(1))
      observer(.completed)
      return Disposables.create()
    }
    .subscribe(onNext: { titles.append("\($0)") })
    .disposed(by: disposeBag)
    #expect(titles.values == ["Title: Offline", "done", "1"])
  }

  @Test("A search debounced on a HistoricalScheduler the test drives searches once per pause, at its virtual times")
  func debouncedSearchOnHistoricalScheduler() {
    let scheduler = HistoricalScheduler()
    let model = SearchModel(scheduler: scheduler)
    for (text, at) in [("s", 0.0), ("sw", 0.1), ("swi", 0.2), ("swi", 0.9), ("swift", 1.5)] {
      _ = scheduler.scheduleAbsoluteVirtual(text, time: Date(timeIntervalSince1970: at)) { text in
        model.query.onNext(text)
        return Disposables.create()
      }
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 1))
    #expect(model.searches == ["swi"])
    scheduler.start()
    #expect(model.searches == ["swi", "swift"])
    // A `Date` counts seconds from 2001 in a `Double`: near 1970 it holds about a tenth of a microsecond.
    #expect(abs(scheduler.clock.timeIntervalSince1970 - 1.8) < 1e-6)
  }
}
