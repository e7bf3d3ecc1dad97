// RxSwift app code in Swift 6 language mode that schedules by hand and observes with `AnyObserver`:
// main-actor closures, plain-class state, and a scheduler written against RxSwift's protocol, as it
// compiles against RxSwift 6.10. Only the imports are swapped.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import Synchronization
import Testing

/// A scheduler as teams write one for RxSwift: RxSwift's signature (no `Sendable` state or action),
/// its own state thread-safe, as a scheduler shared across threads must keep it.
final class InlineScheduler: ImmediateSchedulerType {
  let scheduled = Atomic(0)

  func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
    scheduled.add(1, ordering: .relaxed)
    return action(state)
  }
}

/// A main-actor screen that schedules its own updates and observes through an `AnyObserver`.
@MainActor
final class DownloadScreen {
  private(set) var progress: [Int] = []
  private(set) var banners: [String] = []
  private(set) var log: [Article] = []
  private let disposeBag = DisposeBag()

  func observe(_ downloads: Observable<Article>) {
    let observer = AnyObserver<Article> { event in self.handle(event) }
    downloads.subscribe(observer).disposed(by: disposeBag)
  }

  private func handle(_ event: Event<Article>) {
    switch event {
    case .next(let article): log.append(article)
    case .error: banners.append("failed")
    case .completed: banners.append("done")
    }
  }

  func showBanner(_ article: Article, after delay: RxTimeInterval, on scheduler: SchedulerType) {
    _ = scheduler.scheduleRelative(article, dueTime: delay) { article in
      self.banners.append(article.title)
      return Disposables.create()
    }
  }

  func count(to last: Int, on scheduler: SchedulerType) {
    _ = scheduler.scheduleRecursive(0, dueTime: .seconds(1)) { step, recurse in
      self.progress.append(step)
      if step < last { recurse.schedule(step + 1, dueTime: .seconds(1)) }
    }
  }
}

@Suite("RxSwift scheduling code in Swift 6 mode: main-actor actions, plain-class state, RxSwift's protocol")
struct Swift6SchedulingTests {
  @MainActor
  @Test("A main-actor screen schedules with plain-class state and recurses, on RxTest's clock")
  func mainActorSchedulingOnVirtualTime() {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    let screen = DownloadScreen()
    screen.showBanner(Article(id: 1, title: "saved"), after: .milliseconds(1_500), on: scheduler)
    screen.count(to: 3, on: scheduler)
    scheduler.advanceTo(1_000)
    #expect(screen.progress == [0])
    #expect(screen.banners.isEmpty)
    scheduler.start()
    #expect(screen.progress == [0, 1, 2, 3])
    #expect(screen.banners == ["saved"])
    #expect(scheduler.clock == 4_000)
  }

  @MainActor
  @Test("An AnyObserver made on the main actor gets each event of plain-class values")
  func anyObserverOnTheMainActor() {
    let screen = DownloadScreen()
    let first = Article(id: 1, title: "first")
    screen.observe(.of(first, Article(id: 2, title: "second")))
    #expect(screen.log.count == 2 && screen.log[0] === first)
    #expect(screen.banners == ["done"])
  }

  @Test("A scheduler written with RxSwift's signature conforms and drives the bridge's operators")
  func schedulerWithRxSwiftsSignature() {
    let inline = InlineScheduler()
    var seen: [String] = []
    _ = Observable.from([Article(id: 1, title: "a"), Article(id: 2, title: "b")], scheduler: inline)
      .map(\.title)
      .subscribe(onNext: { seen.append($0) })
    #expect(seen == ["a", "b"])
    #expect(inline.scheduled.load(ordering: .relaxed) == 3)
  }
}
