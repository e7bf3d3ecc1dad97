import Testing

@testable import AsyncSchedulers

@Suite("SchedulerInstant")
struct SchedulerInstantTests {
  @Test("advancing saturates at the distant future and the distant past instead of trapping")
  func saturates() {
    let huge = Duration.seconds(Int64.max)
    #expect(SchedulerInstant.zero.advanced(by: huge) == .distantFuture)
    #expect(SchedulerInstant.distantFuture.advanced(by: .seconds(1)) == .distantFuture)
    #expect(SchedulerInstant.zero.advanced(by: .zero - huge) == .distantPast)
    #expect(SchedulerInstant.distantPast.advanced(by: .seconds(-1)) == .distantPast)
    #expect(SchedulerInstant.zero.advanced(by: .seconds(2)).duration(to: .zero) == .seconds(-2))
  }

  @Test("instants order by offset and print as durations")
  func ordering() {
    let one = SchedulerInstant(offset: .seconds(1))
    #expect(SchedulerInstant.zero < one)
    #expect(one.description == "1.0 seconds")
  }
}
