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
    _ = cold.subscribe(observer)
    scheduler.advanceTo(scheduler.clock + 10)
    #expect(observer.events.count == 2)
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
    let shared = Observable.of(a, b).share(replay: 1)
    _ = Observable.zip(shared, shared.map { $0.id }) { article, id in "\(article.title)\(id)" }
      .subscribe(onNext: { titles.append($0) })
    #expect(titles == ["a1", "b2"])
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
  }
}
