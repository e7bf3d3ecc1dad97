import AsyncSchedulers
import AsyncSchedulersTesting
import Testing
import Foundation
@Test func tmpTiming() {
  for scenario in Scenarios.all {
    let start = Date()
    for _ in 0..<200 { _ = scenario.run() }
    print("TIMING", scenario.name, Date().timeIntervalSince(start))
  }
}
