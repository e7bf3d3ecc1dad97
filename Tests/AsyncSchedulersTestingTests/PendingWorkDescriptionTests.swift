import AsyncSchedulers
import Testing

@testable import AsyncSchedulersTesting

@Suite("What pending work is called when a test ends with it")
struct PendingWorkDescriptionTests {
  @Test("A task's pending plain sleep is named after the task, and at the end of a test the message says how to end it")
  func pendingSleepsAreNamed() async {
    let scheduler = TestScheduler()
    let poller = await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
      let poller = Task(name: "poller") {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
      }
      try? await Task.sleep(for: .milliseconds(1_500))
      return poller
    }
    withKnownIssue {
      scheduler.expectNoPendingWork(atEndOfTest: true, fileID: #fileID, filePath: #filePath, line: #line, column: 1)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("plain sleep of task 'poller', due at 2.0 seconds")
          && $0.rawValue.contains("backgroundTask")
      }
    }
    poller.cancel()
    await poller.value
  }

  @Test("An unnamed task's pending plain sleep is listed as a timer or plain sleep")
  func unnamedSleepsSayHowToName() async {
    let scheduler = TestScheduler()
    let sleeper = await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
      let sleeper = Task { try? await Task.sleep(for: .seconds(5)) }
      await scheduler.settle()
      return sleeper
    }
    withKnownIssue {
      scheduler.expectNoPendingWork()
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("timer or plain sleep due at 5.0 seconds")
      }
    }
    sleeper.cancel()
    await sleeper.value
  }
}
