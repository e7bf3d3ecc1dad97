import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTesting
import Synchronization
import Testing

/// The schedulers the suite's tests saw, to show that each test gets its own.
private let seen = Mutex<[ObjectIdentifier]>([])

@Suite("The .virtualTime trait", .virtualTime)
struct VirtualTimeTraitTests {
  @MainActor
  @Test("A @MainActor view model with a plain Task.sleep is tested in a few lines")
  func mainActorViewModel() async throws {
    let scheduler = try #require(TestScheduler.current)
    let model = SearchViewModel { [$0] }
    model.queryChanged("s")
    scheduler.advance(by: .milliseconds(100))
    model.queryChanged("sw")
    scheduler.advance(by: .milliseconds(300))
    #expect(model.searches == ["sw"])
  }

  @Test("Each test of a suite with the trait gets its own fresh scheduler at zero", arguments: 1...3)
  func freshSchedulerPerTest(index: Int) throws {
    let scheduler = try #require(TestScheduler.current)
    #expect(scheduler.now == .zero)
    seen.withCriticalRegion { $0.append(ObjectIdentifier(scheduler)) }
    #expect(seen.withCriticalRegion { Set($0).count == $0.count })
  }

  @Test("Tasks the test starts inherit TestScheduler.current, which is nil outside such a test")
  func currentIsATaskLocal() async throws {
    let scheduler = try #require(TestScheduler.current)
    #expect(await Task { TestScheduler.current }.value === scheduler)
    #expect(await Task.detached { TestScheduler.current }.value == nil)
  }

  @MainActor
  @Test("A poller that was stopped leaves no pending work: the timer of its cancelled sleep is inert")
  func cancelledSleepIsNotPendingWork() async throws {
    let scheduler = try #require(TestScheduler.current)
    let poller = Poller {}
    poller.start()
    scheduler.advance(by: .milliseconds(1_500))
    poller.stop()
    await poller.finished()
    #expect(poller.polls == 2)
    scheduler.expectNoPendingWork()
  }
}

@Suite("The .virtualTime trait, applied by hand")
struct VirtualTimeTraitScopeTests {
  @Test("Pending work at the end of the test fails it, unless the trait opts out")
  func pendingWorkFailsTheTest() async throws {
    let test = try #require(Test.current)
    let leaveATimer: @Sendable () async throws -> Void = {
      TestScheduler.current?.schedule(at: SchedulerInstant.zero.advanced(by: .seconds(5))) {}
    }
    let trait = VirtualTimeTrait.virtualTime
    await withKnownIssue {
      do {
        try await trait.provideScope(for: test, testCase: Test.Case.current, performing: leaveATimer)
      } catch {
        Issue.record(error)
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Expected no pending work") }
    }
    try await VirtualTimeTrait.virtualTime(expectingNoPendingWork: false)
      .provideScope(for: test, testCase: Test.Case.current, performing: leaveATimer)
  }

  @Test("TestScheduler.current is nil in a test without the trait")
  func currentIsNilWithoutTheTrait() {
    #expect(TestScheduler.current == nil)
  }
}

@Suite("The .virtualTime trait on a suite and on a test with options", .virtualTime)
struct VirtualTimeTraitNestingTests {
  @MainActor
  @Test(
    "The test's own trait gives it one scope, with the test's options",
    .virtualTime(expectingNoPendingWork: false, stallTimeout: .seconds(3)))
  func testOptionsWin() async throws {
    let scheduler = try #require(TestScheduler.current)
    // The scheduler captures: the view model's plain Task.sleep is on its clock.
    let model = SearchViewModel { [$0] }
    model.queryChanged("s")
    scheduler.advance(by: .milliseconds(300))
    #expect(model.searches == ["s"])
    // The test's option: pending work at the end does not fail it (the suite's trait would).
    scheduler.schedule(after: .seconds(5)) {}
  }
}
