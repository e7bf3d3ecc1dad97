import AsyncSchedulers
import AsyncSignals

extension ObservableType {
  /// Subscribes `on` to every event (RxSwift's `subscribe(_:)` with an event closure).
  ///
  /// `on` runs on the thread that sends each event, one event at a time, never after the end. Disposing
  /// the returned disposable ends the subscription: no event is delivered after `dispose()` returns on
  /// the delivering thread, and the sequence's resources are disposed exactly once.
  @inlinable public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> any Disposable {
    let on = rxClosure(on)
    return signal.subscribe { on(Event($0)) }
  }

  /// Subscribes with a closure per kind of event (RxSwift's `subscribe(onNext:onError:onCompleted:onDisposed:)`).
  ///
  /// The closures run on the thread that sends each event. `onDisposed` runs once, when the
  /// subscription ends: after `onError` or `onCompleted`, or when the returned disposable is disposed,
  /// on the disposing thread. Without `onError`, an error goes to ``Hooks/defaultErrorHandler``.
  @inlinable public func subscribe(
    onNext: ((Element) -> Void)? = nil, onError: ((any Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    let onNext = rxClosure(onNext)
    let onError = rxClosure(onError)
    let onCompleted = rxClosure(onCompleted)
    let onDisposed = rxClosure(onDisposed)
    let disposed = onDisposed.map { Disposables.create(with: $0) }
    let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
    let subscription = signal.subscribe { event in
      switch event {
      case .next(let box): onNext?(box.value)
      case .failed(let error):
        if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
        disposed?.dispose()
      case .finished:
        onCompleted?()
        disposed?.dispose()
      }
    }
    guard let disposed else { return subscription }
    return Disposables.create(subscription, disposed)
  }

  /// Subscribes with closures that get `object` too, held weakly: events after `object` is gone are
  /// not delivered (RxSwift 6's `subscribe(with:onNext:onError:onCompleted:onDisposed:)`).
  ///
  /// The closures run as in ``subscribe(onNext:onError:onCompleted:onDisposed:)``.
  @inlinable public func subscribe<Object: AnyObject>(
    with object: Object, onNext: ((Object, Element) -> Void)? = nil,
    onError: ((Object, any Swift.Error) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
  ) -> any Disposable {
    let onNext = rxClosure(onNext)
    let onError = rxClosure(onError)
    let onCompleted = rxClosure(onCompleted)
    let onDisposed = rxClosure(onDisposed)
    let weak = WeakReference(object)
    return subscribe(
      onNext: { value in weak.object.map { onNext?($0, value) } },
      onError: { error in weak.object.map { onError?($0, error) } },
      onCompleted: { weak.object.map { onCompleted?($0) } },
      onDisposed: { weak.object.map { onDisposed?($0) } })
  }

  /// Sends every event to each of `observers` (RxSwift's `bind(to:)`).
  ///
  /// Binding is meant for sequences that do not fail; an error is forwarded to the observers as it is
  /// (RxSwift stops the process in debug builds).
  @inlinable public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
  where Observer.Element == Element {
    subscribe { event in
      for observer in observers { observer.on(event) }
    }
  }

  /// Sends every event, its value made optional, to each of `observers` (RxSwift's `bind(to:)` for
  /// optional observers).
  @inlinable public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
  where Observer.Element == Element? {
    subscribe { event in
      for observer in observers { observer.on(event.map { $0 }) }
    }
  }

  /// Calls `onNext` with each value (RxSwift's `bind(onNext:)`), on the sending thread.
  @inlinable public func bind(onNext: @escaping (Element) -> Void) -> any Disposable {
    return subscribe(onNext: onNext)
  }

  /// Subscribes with `binder`, which gets this sequence and returns what to dispose (RxSwift's
  /// `bind(to:)` with a binder function).
  @inlinable public func bind<Result>(to binder: (Self) -> Result) -> Result { binder(self) }
}

/// A weak reference that crosses threads: it only reads the reference, which the runtime makes atomic.
@usableFromInline final class WeakReference<Object: AnyObject>: @unchecked Sendable {
  // Why @unchecked Sendable: the one stored property is a `weak let`, read atomically by the runtime and
  // never written after `init`; the object it reaches (which need not be `Sendable`: RxSwift code passes
  // `self`) is only handed to the app's own closures, as RxSwift hands it (see `RxClosure`).
  @usableFromInline weak let object: Object?
  @inlinable init(_ object: Object) { self.object = object }
}
