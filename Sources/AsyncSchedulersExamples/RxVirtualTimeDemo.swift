import AsyncSchedulersRxBridge
import AsyncSchedulersTesting

#if canImport(Testing)
  import Testing
#endif

// snippet: rx-view-model
/// A search screen's view model written the RxSwift way: the schedulers are named in the code.
@MainActor final class RxSearchModel {
  let query = BehaviorRelay<String>(value: "")
  private(set) var results: [String] = []
  private let disposeBag = DisposeBag()

  init() {
    let background = SerialDispatchQueueScheduler(qos: .userInitiated)
    query.skip(1)
      .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
      .flatMapLatest { text in Observable.just(["\(text) 1", "\(text) 2"]).delay(.seconds(1), scheduler: background) }
      .observe(on: MainScheduler.instance)
      .subscribe(onNext: { [weak self] results in MainActor.assumeIsolated { self?.results = results } })
      .disposed(by: disposeBag)
  }
}
// end-snippet

#if canImport(Testing)
  /// The view model's test: no RxTest, no injected scheduler (compiled here; a test target runs it).
  struct RxSearchModelTests {
    // snippet: rx-view-model-test
    @Test(.virtualTime) @MainActor
    func searchAnswersOneSecondAfterAPause() async throws {
      let model = RxSearchModel()
      model.query.accept("swift")
      try await Task.sleep(for: .milliseconds(1_200))  // virtual: debounce at 300 ms, answer at 1,300 ms
      #expect(model.results.isEmpty)
      try await Task.sleep(for: .milliseconds(100))
      #expect(model.results == ["swift 1", "swift 2"])
    }
    // end-snippet
  }
#endif

/// The same test without the trait, run by the examples: a scope around the test's body.
enum RxVirtualTimeDemo {
  @MainActor
  static func run() async {
    let scheduler = TestScheduler()
    let (before, after) = await scheduler.capturingAllTasks {
      let model = RxSearchModel()
      model.query.accept("swift")
      try? await Task.sleep(for: .milliseconds(1_200))
      let before = model.results
      try? await Task.sleep(for: .milliseconds(100))
      return (before, model.results)
    }
    assert(before.isEmpty && after == ["swift 1", "swift 2"] && scheduler.now.offset == .milliseconds(1_300))
    print("  an Rx view model on MainScheduler.instance under a scope: \(after) at \(scheduler.now.offset)")
  }
}
