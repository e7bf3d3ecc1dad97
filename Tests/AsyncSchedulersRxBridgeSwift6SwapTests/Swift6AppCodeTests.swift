// RxSwift app code as teams write it in Swift 6 language mode (it compiles so against RxSwift 6.10,
// whose closures are not @Sendable), with `import RxSwift`/`import RxRelay`/`import RxTest` swapped for
// the bridge and its testing module. Nothing else changed: main-actor view models whose closures set
// their own state, plain classes captured in closures, a non-Sendable service captured by flatMapLatest.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import Testing

/// A search service as apps have it: a plain class, not `Sendable`, counting its requests.
final class SearchService {
  private(set) var requests: [String] = []

  func search(_ query: String) -> Observable<[String]> {
    requests.append(query)
    return .just(["\(query) 1", "\(query) 2"])
  }
}

/// A main-actor view model: a debounced search, flatMapLatest, observe(on:), relays, a dispose bag.
@MainActor
final class SearchViewModel {
  let query = BehaviorRelay<String>(value: "")
  let results = BehaviorRelay<[String]>(value: [])
  private(set) var isSearching = false
  private(set) var searchesStarted = 0
  private let disposeBag = DisposeBag()

  init(service: SearchService, scheduler: SchedulerType, ui: ImmediateSchedulerType = MainScheduler.instance) {
    query
      .debounce(.milliseconds(300), scheduler: scheduler)
      .distinctUntilChanged()
      .filter { !$0.isEmpty }
      .do(onNext: { [weak self] _ in
        self?.isSearching = true
        self?.searchesStarted += 1
      })
      .flatMapLatest { query in service.search(query) }
      .observe(on: ui)
      .subscribe(onNext: { [weak self] items in
        self?.isSearching = false
        self?.results.accept(items)
      })
      .disposed(by: disposeBag)
  }
}

/// A login form's model: no isolation, as most RxSwift view models have none.
final class LoginViewModel {
  let username = BehaviorRelay(value: "")
  let password = BehaviorRelay(value: "")

  var isValid: Observable<Bool> {
    Observable.combineLatest(username, password) { name, password in name.count >= 3 && password.count >= 6 }
      .distinctUntilChanged()
  }
}

/// A screen binding the login model: a plain class capturing itself in its subscriptions.
final class LoginScreen {
  private(set) var isButtonEnabled = false
  private(set) var enabledChanges = 0
  private(set) var cancelledRequests = 0
  private(set) var hint = ""
  let disposeBag = DisposeBag()

  func bind(to model: LoginViewModel) {
    model.isValid
      .subscribe(onNext: { [weak self] valid in
        self?.isButtonEnabled = valid
        self?.enabledChanges += 1
      })
      .disposed(by: disposeBag)
    model.isValid
      .withUnretained(self) { owner, valid in valid ? "" : "\(owner.enabledChanges) check(s) so far" }
      .subscribe(with: self, onNext: { owner, hint in owner.hint = hint })
      .disposed(by: disposeBag)
  }

  /// A request wrapped in `Observable.create`, cancelled from its disposable, as apps wrap callbacks.
  func request() -> Observable<String> {
    Observable.create { observer in
      observer.onNext("response")
      return Disposables.create { [self] in self.cancelledRequests += 1 }
    }
  }
}

@Suite("RxSwift app code in Swift 6 language mode, after swapping the import")
struct Swift6AppCodeTests {
  @MainActor
  @Test("A main-actor view model searches once per pause and shows the results, on RxTest's clock")
  func debouncedSearchOnTheMainActor() {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    let service = SearchService()
    let model = SearchViewModel(service: service, scheduler: scheduler, ui: scheduler)
    for (text, at) in [("s", 100), ("sw", 200), ("swift", 300), ("swift", 1_000), ("rx", 1_100)] {
      scheduler.scheduleAt(at) { model.query.accept(text) }
    }
    scheduler.advanceTo(600)
    #expect(service.requests == ["swift"])
    #expect(model.isSearching)
    scheduler.advanceTo(700)
    #expect(!model.isSearching)
    #expect(model.results.value == ["swift 1", "swift 2"])
    scheduler.start()
    #expect(service.requests == ["swift", "rx"])
    #expect(model.searchesStarted == 2)
    #expect(!model.isSearching)
    #expect(model.results.value == ["rx 1", "rx 2"])
  }

  @Test("A plain screen class binds a login model's validity and cancels a request on dispose")
  func plainClassesCaptureThemselves() {
    let model = LoginViewModel()
    let screen = LoginScreen()
    screen.bind(to: model)
    #expect(!screen.isButtonEnabled)
    model.username.accept("ada")
    model.password.accept("lovelace")
    #expect(screen.isButtonEnabled)
    #expect(screen.enabledChanges == 2)
    #expect(screen.hint == "")
    model.password.accept("short")
    #expect(screen.hint == "3 check(s) so far")

    let subscription = screen.request().subscribe(onNext: { #expect($0 == "response") })
    subscription.dispose()
    #expect(screen.cancelledRequests == 1)
  }
}
