/// An observer that sets a property of a target object with each value, on a scheduler (RxSwift's
/// `Binder`, without RxCocoa's UIKit parts): what `bind(to:)` a UI property takes.
///
/// The binder does not keep its target alive: once the target is gone, values are dropped. Each value
/// is handed to `binding` on `scheduler` (the main scheduler unless told otherwise), so `binding` runs
/// there and must not block for long. Completion does nothing. An error is a programming error (a
/// binding is for sequences that do not fail): in debug builds it stops the program with a message
/// naming the error, as RxSwift does; in release builds the message is printed and the error dropped.
public struct Binder<Value>: ObserverType, Sendable {
  /// The type of the values bound.
  public typealias Element = Value

  private let binding: @Sendable (Event<Value>) -> Void

  /// A binder that calls `binding(target, value)` on `scheduler` with each value while `target` lives.
  public init<Target: AnyObject>(
    _ target: Target, scheduler: some ImmediateSchedulerType = MainScheduler.instance,
    binding: @escaping (Target, Value) -> Void
  ) {
    let binding = rxClosure(binding)
    let target = WeakTarget(target)
    self.binding = { event in
      switch event {
      case .next(let value):
        _ = scheduler.schedule(RxElement(value)) { box in
          if let target = target.object { binding(target, box.value) }
          return Disposables.create()
        }
      case .error(let error):
        let message = "Binder: a binding received an error, which a binding cannot show: \(error)"
        // Stops a debug build with the message; a release build goes on to print it.
        assertionFailure(message)
        print(message)
      case .completed:
        break
      }
    }
  }

  /// Binds `event`'s value (see the type's rules).
  public func on(_ event: Event<Value>) { binding(event) }

  /// The binder as an `AnyObserver`.
  public func asObserver() -> AnyObserver<Value> { AnyObserver(sendableHandler: binding) }
}

/// A binder's target, held weakly.
private final class WeakTarget<Target: AnyObject>: @unchecked Sendable {
  // Why @unchecked Sendable: the target is only read to hand it to the binding on the binder's
  // scheduler (the main one by default), which is where the app uses it, as RxSwift's `Binder` does.
  weak var object: Target?
  init(_ object: Target) { self.object = object }
}
