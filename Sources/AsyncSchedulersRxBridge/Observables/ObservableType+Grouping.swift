import AsyncSchedulers
import Synchronization

extension ObservableType {
  /// Splits the values into groups by the key `keySelector` gives each (RxSwift's `groupBy`): the
  /// first value of a key sends a new ``GroupedObservable``, then the value to it. The source's end
  /// and errors reach every group, in the order the groups were made, then the outer sequence; a throw
  /// of `keySelector` fails them all.
  ///
  /// `keySelector` runs on the thread delivering the value. The source stays subscribed while the outer
  /// subscription or any group's subscription is alive (RxSwift's reference-counted disposal).
  public func groupBy<Key: Hashable & SendableMetatype>(keySelector: @escaping (Element) throws -> Key)
    -> Observable<GroupedObservable<Key, Element>>
  {
    let keySelector = rxClosure(keySelector)
    let upstream = signal
    return Observable.create { observer in
      let source = SerialDisposable()
      let refCount = RefCountDisposable(disposable: source)
      // The groups by key, and in the order they were made (the end reaches them in that order); `nil`
      // once the source ended.
      let groups = Mutex<(byKey: [RxElement<Key>: PublishSubject<Element>], inOrder: [PublishSubject<Element>])?>(
        ([:], []))
      @Sendable func end(_ event: Event<Element>) {
        let all = groups.withLock { groups -> [PublishSubject<Element>] in
          defer { groups = nil }
          return groups?.inOrder ?? []
        }
        for group in all { group.on(event) }
        switch event {
        case .error(let error): observer.onError(error)
        default: observer.onCompleted()
        }
      }
      source.disposable = upstream.subscribe { event in
        switch event {
        case .next(let box):
          let value = box.value
          let key: RxElement<Key>
          do { key = RxElement(try keySelector(value)) } catch { return end(.error(error)) }
          let (group, isNew) = groups.withLock { groups -> (PublishSubject<Element>?, Bool) in
            guard groups != nil else { return (nil, false) }
            if let group = groups!.byKey[key] { return (group, false) }
            let group = PublishSubject<Element>()
            groups!.byKey[key] = group
            groups!.inOrder.append(group)
            return (group, true)
          }
          guard let group else { return }
          if isNew {
            let shared = Observable<Element>.create { groupObserver in
              let release = refCount.retain()
              return Disposables.create(group.subscribe(groupObserver), release)
            }
            observer.onNext(GroupedObservable(key: key.value, source: shared))
          }
          group.onNext(value)
        case .failed(let error): end(.error(error))
        case .finished: end(.completed)
        }
      }
      return refCount
    }
  }
}
