// RxSwift app code in Swift 6 language mode whose values are the app's own classes: plain, mutable,
// not `Sendable` (it compiles so against RxSwift 6.10, whose `Observable<Element>` asks nothing of
// `Element`). Only the imports are swapped for the bridge and its testing module.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import Testing

/// An article as apps model it: a plain class with mutable state, not `Sendable`.
final class Article {
  let id: Int
  var title: String
  var isRead = false

  init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

/// A topic articles are grouped by: a plain class, `Hashable`, not `Sendable`.
final class Topic: Hashable {
  let name: String
  init(name: String) { self.name = name }
  static func == (lhs: Topic, rhs: Topic) -> Bool { lhs.name == rhs.name }
  func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A feed store: a plain class handing out articles through Rx traits.
final class ArticleStore {
  private(set) var pagesLoaded = 0

  func page(_ number: Int) -> Single<[Article]> {
    pagesLoaded += 1
    return .just((1...2).map { Article(id: number * 10 + $0, title: "Article \(number).\($0)") })
  }

  func article(withID id: Int, in articles: [Article]) -> Maybe<Article> {
    guard let article = articles.first(where: { $0.id == id }) else { return .empty() }
    return .just(article)
  }
}

/// A main-actor feed: pages appended on refresh, the selection throttled and marked read.
@MainActor
final class FeedViewModel {
  let articles = BehaviorRelay<[Article]>(value: [])
  let selection = PublishSubject<Article>()
  let refresh = PublishRelay<Void>()
  private(set) var opened: [Article] = []
  private(set) var unread = 0
  private let disposeBag = DisposeBag()

  init(store: ArticleStore, scheduler: SchedulerType, ui: ImmediateSchedulerType = MainScheduler.instance) {
    refresh
      .scan(0) { page, _ in page + 1 }
      .flatMapLatest { store.page($0).asObservable() }
      .scan([Article]()) { all, page in all + page }
      .observe(on: ui)
      .bind(to: articles)
      .disposed(by: disposeBag)
    selection
      .throttle(.milliseconds(500), latest: false, scheduler: scheduler)
      .do(onNext: { $0.isRead = true })
      .observe(on: ui)
      .subscribe(onNext: { [weak self] article in self?.opened.append(article) })
      .disposed(by: disposeBag)
    Observable.combineLatest(articles, selection.startWith(Article(id: 0, title: "none"))) { all, _ in
      all.filter { !$0.isRead }.count
    }
    .subscribe(onNext: { [weak self] count in self?.unread = count })
    .disposed(by: disposeBag)
  }
}

@Suite("RxSwift app code in Swift 6 mode whose values are plain classes")
struct Swift6ModelClassesTests {
  @MainActor
  @Test("A main-actor feed pages plain-class articles and marks the throttled selection read, on RxTest's clock")
  func feedOfPlainClasses() {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    let store = ArticleStore()
    let model = FeedViewModel(store: store, scheduler: scheduler, ui: scheduler)
    scheduler.scheduleAt(100) { model.refresh.accept(()) }
    scheduler.scheduleAt(200) { model.refresh.accept(()) }
    scheduler.scheduleAt(300) { model.selection.onNext(model.articles.value[2]) }
    scheduler.scheduleAt(400) { model.selection.onNext(model.articles.value[3]) }
    scheduler.scheduleAt(900) { model.selection.onNext(model.articles.value[0]) }
    scheduler.start()
    #expect(store.pagesLoaded == 2)
    #expect(model.articles.value.map(\.title) == ["Article 1.1", "Article 1.2", "Article 2.1", "Article 2.2"])
    // 400 falls in the throttle window opened at 300: dropped; 900 is after it.
    #expect(model.opened.map(\.id) == [21, 11])
    #expect(model.opened[0] === model.articles.value[2])
    #expect(model.articles.value.map(\.isRead) == [true, false, true, false])
    #expect(model.unread == 2)
  }

  @Test("RxTest records plain-class values as they are: the same instances, at their virtual times")
  func rxTestRecordsPlainClasses() {
    let scheduler = TestScheduler(initialClock: 0)
    let first = Article(id: 1, title: "first")
    let second = Article(id: 2, title: "second")
    let source = scheduler.createHotObservable([.next(210, first), .next(220, second), .completed(300)])
    let titles = scheduler.start { source.map { $0.title.uppercased() } }
    #expect(titles.events == [.next(210, "FIRST"), .next(220, "SECOND"), .completed(300)])

    let cold = scheduler.createColdObservable([.next(5, first), .completed(10)])
    let observer = scheduler.createObserver(Article.self)
    let subscribedAt = scheduler.clock
    _ = cold.subscribe(observer)
    scheduler.advanceTo(subscribedAt + 10)
    #expect(observer.events.map(\.time) == [subscribedAt + 5, subscribedAt + 10])
    #expect(observer.events[0].value.element === first)
    #expect(source.recordedEvents[1].value.element === second)
  }

  @Test("Plain-class values cross a background scheduler and come back through RxBlocking, unchanged in identity")
  func plainClassesCrossThreads() throws {
    let articles = (1...50).map { Article(id: $0, title: "a\($0)") }
    let background = SerialDispatchQueueScheduler(qos: .default)
    let marked = try Observable.from(articles)
      .observe(on: background)
      .map { article -> Article in
        article.isRead = true
        return article
      }
      .toBlocking(timeout: 10)
      .toArray()
    #expect(marked.count == 50)
    #expect(zip(marked, articles).allSatisfy { $0 === $1 })
    #expect(articles.allSatisfy { $0.isRead })
  }

  @Test("Subjects, relays and traits hold plain-class values; combinators pair them")
  func subjectsTraitsAndCombinators() throws {
    let a = Article(id: 1, title: "a")
    let b = Article(id: 2, title: "b")

    let current = BehaviorSubject(value: a)
    #expect(try current.value() === a)
    let replay = ReplaySubject<Article>.create(bufferSize: 1)
    replay.onNext(a)
    replay.onNext(b)
    var replayed: [Article] = []
    _ = replay.subscribe(onNext: { replayed.append($0) })
    #expect(replayed.count == 1 && replayed[0] === b)
    let last = AsyncSubject<Article>()
    var lastSeen: Article?
    _ = last.subscribe(onNext: { lastSeen = $0 })
    last.onNext(a)
    last.onNext(b)
    last.onCompleted()
    #expect(lastSeen === b)

    let store = ArticleStore()
    var found: Article?
    _ = store.article(withID: 2, in: [a, b]).subscribe(onSuccess: { found = $0 })
    #expect(found === b)
    var pair: (Article, Article)?
    _ = Single.zip(Single.just(a), Single.just(b)).subscribe(onSuccess: { pair = $0 })
    #expect(pair?.0 === a && pair?.1 === b)

    var titles: [String] = []
    _ = Observable.zip(Observable.of(a, b), Observable.of(1, 2)) { article, id in "\(article.title)\(id)" }
      .subscribe(onNext: { titles.append($0) })
    #expect(titles == ["a1", "b2"])
    let hot = PublishSubject<Article>()
    let shared = hot.share(replay: 1)
    var early: [Article] = []
    var late: [Article] = []
    let first = shared.subscribe(onNext: { early.append($0) })
    hot.onNext(a)
    hot.onNext(b)
    let second = shared.subscribe(onNext: { late.append($0) })
    #expect(early.count == 2 && early[1] === b)
    #expect(late.count == 1 && late[0] === b)
    first.dispose()
    second.dispose()
    var groups: [String: [Int]] = [:]
    _ = Observable.of(a, b, Article(id: 3, title: "a"))
      .groupBy { Topic(name: $0.title) }
      .flatMap { group in group.map { (group.key.name, $0.id) } }
      .subscribe(onNext: { name, id in groups[name, default: []].append(id) })
    #expect(groups == ["a": [1, 3], "b": [2]])

    let selected = PublishSubject<Article>()
    var latest: [String] = []
    _ = selected.withLatestFrom(Observable.just(b)) { picked, other in picked.title + other.title }
      .subscribe(onNext: { latest.append($0) })
    selected.onNext(a)
    #expect(latest == ["ab"])
  }

  @Test("An observable of plain classes is iterated with for-await as RxSwift 6.5's values")
  func valuesOfPlainClasses() async throws {
    let articles = [Article(id: 1, title: "one"), Article(id: 2, title: "two")]
    var seen: [Article] = []
    for try await article in Observable.from(articles).values { seen.append(article) }
    #expect(seen.count == 2 && seen[0] === articles[0] && seen[1] === articles[1])
    var infallible: [Article] = []
    for await article in Infallible.from(articles).values { infallible.append(article) }
    #expect(infallible.count == 2 && infallible[1] === articles[1])
  }
}

/// A counter as apps keep one: a plain class a periodic action updates.
final class TickCounter {
  var ticks = 0
}

/// A scheduler with only RxSwift's two required calls, so `schedulePeriodic` is the protocol's own.
final class RelativeOnlyScheduler: SchedulerType {
  let base: TestScheduler
  init(_ base: TestScheduler) { self.base = base }
  var now: RxTime { base.now }
  func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
    base.schedule(state, action: action)
  }
  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    base.scheduleRelative(state, dueTime: dueTime, action: action)
  }
}

@Suite("Plain-class values through RxSwift's timed operators and periodic scheduling, in Swift 6 mode")
struct Swift6TimedModelClassesTests {
  @Test("delay, buffer and window keep plain-class instances and their virtual times")
  func timedOperatorsKeepInstances() {
    let a = Article(id: 1, title: "a")
    let b = Article(id: 2, title: "b")
    func run<Result>(_ operation: @escaping (TestableObservable<Article>, TestScheduler) -> Observable<Result>)
      -> TestableObserver<Result>
    {
      let scheduler = TestScheduler(initialClock: 0)
      let source = scheduler.createHotObservable([.next(210, a), .next(220, b), .completed(300)])
      return scheduler.start { operation(source, scheduler) }
    }
    let delayed = run { source, scheduler in source.delay(.seconds(5), scheduler: scheduler) }
    #expect(delayed.events.map(\.time) == [215, 225, 305])
    #expect(delayed.events[0].value.element === a && delayed.events[1].value.element === b)

    let batches = run { source, scheduler in source.buffer(timeSpan: .seconds(1_000), count: 5, scheduler: scheduler) }
    #expect(batches.events.map(\.time) == [300, 300])
    let batch = batches.events[0].value.element ?? []
    #expect(batch.count == 2 && batch[0] === a && batch[1] === b)

    let windowed = run { source, scheduler in
      source.window(timeSpan: .seconds(1_000), count: 5, scheduler: scheduler).flatMap { $0 }
    }
    #expect(windowed.events.map(\.time) == [210, 220, 300])
    #expect(windowed.events[1].value.element === b)
  }

  @Test("schedulePeriodic threads a plain-class state from tick to tick, on RxTest's scheduler and a custom one")
  func periodicPlainClassState() {
    let scheduler = TestScheduler(initialClock: 0)
    let counter = TickCounter()
    let core = scheduler.schedulePeriodic(counter, startAfter: .seconds(10), period: .seconds(10)) { state in
      state.ticks += 1
      return state
    }
    let emulated = TickCounter()
    let custom = RelativeOnlyScheduler(scheduler)
    let emulation = custom.schedulePeriodic(emulated, startAfter: .seconds(10), period: .seconds(10)) { state in
      state.ticks += 1
      return state
    }
    scheduler.advanceTo(35)
    core.dispose()
    emulation.dispose()
    scheduler.advanceTo(100)
    #expect(counter.ticks == 3)
    #expect(emulated.ticks == 3)
  }
}
