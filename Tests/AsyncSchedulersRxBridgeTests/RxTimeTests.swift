import AsyncSchedulers
import Dispatch
import Testing

@testable import AsyncSchedulersRxBridge

@Suite("RxTime and RxTimeInterval")
struct RxTimeTests {
  @Test("every DispatchTimeInterval case converts to a Duration, and .never to nothing")
  func conversions() {
    #expect(RxTimeInterval.seconds(2).rxDuration == .seconds(2))
    #expect(RxTimeInterval.milliseconds(3).rxDuration == .milliseconds(3))
    #expect(RxTimeInterval.microseconds(4).rxDuration == .microseconds(4))
    #expect(RxTimeInterval.nanoseconds(5).rxDuration == .nanoseconds(5))
    #expect(RxTimeInterval.never.rxDuration == nil)
    #expect(RxTimeInterval.milliseconds(-7).rxDuration == .milliseconds(-7))
    #expect(RxTimeInterval.milliseconds(1500).rxSeconds == 1.5)
  }
}
