import AsyncSchedulers
import AsyncSchedulersRxBridge
import Dispatch
import Testing

// This file imports the core and the Rx bridge together, as a file mid-migration does: both
// spellings must compile without ambiguity.

@Suite("Core and Rx spellings together")
struct MixedImportTests {
  @Test("a file importing both modules uses Rx's and the core's names for the same types")
  func bothSpellings() async {
    let bag = DisposeBag()
    let composite = CompositeDisposable()
    composite.add(AnyDisposable {})
    _ = composite.insert(Disposables.create())
    let serial = SerialDisposable()
    serial.inner = AnyDisposable {}
    serial.disposable = Disposables.create()
    serial.disposed(by: bag)
    let rx = SerialDispatchQueueScheduler(qos: .default)
    let native: any Scheduler = rx.core
    let log = Log()
    native.execute { log("native") }
    _ = rx.schedule(()) { _ in
      log("rx")
      return Disposables.create()
    }
    await drain(rx)
    #expect(log.values == ["native", "rx"])
  }
}
