// RxSwift code that extends `.rx` and binds to UI-like objects, with `import RxSwift`/`import RxRelay`
// swapped for the bridge, in Swift 5 mode.
import AsyncSchedulersRxBridge
import Dispatch
import Foundation
import Testing

/// A label as an app's own view layer has it (no UIKit here).
final class StatusLabel: NSObject, @unchecked Sendable {
  var text = ""
  var isHidden = true
}

/// The app's reactive extension, as RxSwift apps write them.
extension Reactive where Base: StatusLabel {
  var status: Binder<String> {
    Binder(base, scheduler: CurrentThreadScheduler.instance) { label, status in
      label.text = status
      label.isHidden = status.isEmpty
    }
  }
}

/// A value type with a reactive namespace of its own.
struct Counter: ReactiveCompatible {
  var count = 3
}

extension Reactive where Base == Counter {
  var doubled: Int { base.count * 2 }
}

@Suite("Reactive, ReactiveCompatible and Binder after swapping the import")
struct ReactiveSwapTests {
  @Test("a value binds to an app's reactive extension and to a key-path binder of any NSObject")
  func bindToReactiveExtensions() {
    let label = StatusLabel()
    let relay = BehaviorRelay(value: "loading")
    let subscription = relay.asObservable().bind(to: label.rx.status)
    #expect(label.text == "loading" && !label.isHidden)
    relay.accept("")
    #expect(label.isHidden)
    subscription.dispose()
    #expect(Counter().rx.doubled == 6)
  }

  @Test("a key-path binder sets the property on the main scheduler")
  func keyPathBinderRunsOnMain() async {
    let label = StatusLabel()
    _ = Observable.just(false).bind(to: label.rx.isHidden)
    // Resumed by a main-queue block queued after the binder's job (no thread waits meanwhile).
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    #expect(label.isHidden == false)
  }

  @Test("a binder does not keep its target alive, and drops values once it is gone")
  func binderDoesNotRetain() {
    var label: StatusLabel? = StatusLabel()
    weak let weakLabel = label
    let binder = Binder(label!, scheduler: CurrentThreadScheduler.instance) { (label: StatusLabel, text: String) in
      label.text = text
    }
    label = nil
    #expect(weakLabel == nil)
    binder.onNext("ignored")  // No target: nothing happens.
  }
}
