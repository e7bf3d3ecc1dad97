import AsyncSchedulers
import AsyncSignals

extension ObservableConvertibleType {
  /// The sequence's values as an async sequence (RxSwift 6.5's `values`): iterating subscribes; leaving
  /// the loop disposes the subscription; an error is thrown from the loop; cancelling the iterating task
  /// disposes the subscription and throws `CancellationError`, as RxSwift's does. Values wait in an
  /// unbounded buffer while the loop body runs.
  @inlinable public var values: ObservableValues<Element> {
    ObservableValues(values: asObservable().signal.values(buffering: .unbounded))
  }

}

extension ObservableConvertibleType where Element: Sendable {
  /// The sequence as a native signal (errors untyped); its values must be `Sendable`, as the native
  /// signals' are.
  @inlinable public func asSignal() -> Signal<Element, any Error> { asObservable().signal.map(\.value) }
}

extension Signal {
  /// The signal as an `Observable`: the same subscriptions, its failure untyped.
  @inlinable public func asObservable() -> Observable<Element> {
    Observable(self.map(RxElement.init).catch { error -> Signal<RxElement<Element>, any Error> in .fail(error) })
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// The async sequence as an `Observable` (RxSwift 6.5's `asObservable()`): each subscription
  /// iterates it in a new task; disposing cancels that task; an error it throws fails the sequence.
  @inlinable public func asObservable() -> Observable<Element> { asObservable(priority: nil) }

  /// The async sequence as an `Observable` whose iterating task runs at `priority` (RxSwift 6.6's
  /// `asObservable(priority:)`; `nil`: the priority a `Task {}` made there would have).
  @inlinable public func asObservable(priority: TaskPriority?) -> Observable<Element> {
    Observable.create { observer in
      let task = Task(priority: priority) {
        do {
          for try await value in self { observer.onNext(value) }
          observer.onCompleted()
        } catch {
          observer.onError(error)
        }
      }
      return Disposables.create { task.cancel() }
    }
  }
}
