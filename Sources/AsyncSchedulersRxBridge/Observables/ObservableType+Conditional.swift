import AsyncSignals
import Synchronization

extension ObservableType {
  /// Sends the sequence's one value and completes (RxSwift's `single()`): a second value fails it at
  /// once with ``RxError/moreThanOneElement``, completing with none fails it with
  /// ``RxError/noElements``. The value is sent as soon as it arrives.
  @inlinable public func single() -> Observable<Element> { single { _ in true } }

  /// Sends the one value that passes `predicate` and completes (RxSwift's `single(_:)`); values that
  /// fail it are dropped. A second passing value fails the sequence with ``RxError/moreThanOneElement``,
  /// none with ``RxError/noElements``. `predicate` runs on the delivering thread; a throw fails it.
  @inlinable public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    let predicate = rxClosure(predicate)
    return lift {
      let seen = SubscriptionState(false)
      return { event, observer in
        switch event {
        case .next(let value):
          guard try predicate(value) else { return }
          if seen.value {
            observer.fail(RxError.moreThanOneElement)
          } else {
            seen.value = true
            observer.send(value)
          }
        case .error(let error): observer.fail(error)
        case .completed: seen.value ? observer.finish() : observer.fail(RxError.noElements)
        }
      }
    }
  }

  /// Sends `other`'s events when this sequence completes without a value (RxSwift's
  /// `ifEmpty(switchTo:)`); `other` is subscribed only then. Errors pass through.
  public func ifEmpty<Source: ObservableConvertibleType>(switchTo other: Source) -> Observable<Element>
  where Source.Element == Element {
    let upstream = asObservable()
    let fallback = other.asObservable()
    return Observable.deferred {
      let sawValue = Atomic<Bool>(false)
      return upstream.do(onNext: { _ in sawValue.store(true, ordering: .relaxed) })
        .concat(Observable.deferred { sawValue.load(ordering: .relaxed) ? .empty() : fallback })
    }
  }

  /// Sends `default` and completes when this sequence completes without a value (RxSwift's
  /// `ifEmpty(default:)`).
  @inlinable public func ifEmpty(default element: Element) -> Observable<Element> {
    ifEmpty(switchTo: Observable.just(element))
  }
}

extension ObservableType {
  /// Pairs each value with `object`, held weakly: once `object` is gone, the next value completes the
  /// sequence instead (RxSwift's `withUnretained(_:)`).
  @inlinable public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
    withUnretained(object) { ($0, $1) }
  }

  /// Combines each value with `object`, held weakly, through `resultSelector` (on the delivering
  /// thread; a throw fails the sequence); once `object` is gone, the next value completes the sequence
  /// (RxSwift's `withUnretained(_:resultSelector:)`).
  ///
  /// `object` need not be `Sendable` (RxSwift code passes `self`): it is held weakly and handed to
  /// `resultSelector` only, as RxSwift does.
  @inlinable public func withUnretained<Object: AnyObject, Out>(
    _ object: Object, resultSelector: @escaping (Object, Element) throws -> Out
  ) -> Observable<Out> {
    let resultSelector = rxClosure(resultSelector)
    let weak = WeakReference(object)
    return liftValues { value, observer in
      guard let object = weak.object else { return observer.finish() }
      observer.send(try resultSelector(object, value))
    }
  }
}

extension Observable {
  /// A sequence that makes a resource for each subscription, subscribes to the sequence
  /// `observableFactory` makes from it, and disposes the resource when the subscription ends (RxSwift's
  /// `using`): after the end, or on disposal, after the inner subscription. Both factories run on the
  /// subscribing thread; a throw fails the subscription (and disposes a resource already made).
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    observableFactory: @escaping (Resource) throws -> Observable<Element>
  ) -> Observable<Element> {
    let resourceFactory = rxClosure(resourceFactory)
    let observableFactory = rxClosure(observableFactory)
    return Observable.create { observer in
      let resource: Resource
      do { resource = try resourceFactory() } catch {
        observer.onError(error)
        return Disposables.create()
      }
      do {
        let subscription = try observableFactory(resource).subscribe(observer)
        return Disposables.create(subscription, resource)
      } catch {
        observer.onError(error)
        resource.dispose()
        return Disposables.create()
      }
    }
  }
}
