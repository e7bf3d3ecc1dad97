import AppPatterns
import AsyncSchedulersTesting
import Testing

@Suite("scratch")
struct AppCodeScratchTests {
  @MainActor @Test("main actor view model, plain sleep")
  func mainActorPlain() async {
    let scheduler = TestScheduler()
    await scheduler.capturingAllTasks {
      let model = SearchViewModel { [$0.uppercased()] }
      model.queryChanged("s")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(299))
      #expect(model.searches == [])
      scheduler.advance(by: .milliseconds(1))
      #expect(model.searches == ["sw"])
      #expect(model.results == ["SW"])
    }
  }

  @Test("nonisolated test, main actor view model, injected clock")
  func nonisolatedClock() async {
    let scheduler = TestScheduler()
    await scheduler.capturingAllTasks {
      let model = await SearchViewModel(clock: scheduler) { [$0.uppercased()] }
      await model.queryChanged("s")
      scheduler.advance(by: .milliseconds(100))
      await model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(300))
      #expect(await model.searches == ["sw"])
    }
  }
}
