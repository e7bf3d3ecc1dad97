import AsyncSchedulers
import AsyncSignals
import Synchronization

extension ObservableType {
  /// Merges the values of `sources`; ends with the first error, or when all have completed.
  @inlinable public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
    Observable(.merge(sources.map(\.signal)))
  }

  /// Merges the values of the observables of `sources` (any collection), as the array form does.
  @inlinable public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    merge(Array(sources))
  }

  /// Merges the values of `sources`, as the array form does.
  @inlinable public static func merge(_ sources: Observable<Element>...) -> Observable<Element> { merge(sources) }

  /// Sends the values of `sources` one sequence after another: each starts when the previous completes.
  @inlinable public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
    guard let first = sources.first else { return .empty() }
    return Observable(sources.dropFirst().reduce(first.signal) { $0.concat($1.signal) })
  }

  /// Sends the values of `sources` one after another, as the array form does.
  @inlinable public static func concat(_ sources: Observable<Element>...) -> Observable<Element> { concat(sources) }

  /// Sends the values of the observables of `sequence` one after another, taking each from the sequence
  /// only when the previous one has completed (RxSwift's `concat` of a sequence: a lazy or endless one
  /// works). Each subscription iterates the sequence anew, on the thread where the previous observable
  /// completed.
  public static func concat<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    let sources = LazyObservables(sequence)
    return Observable(
      Signal { observer in
        let current = SerialDisposable()
        LazyConcat(sources.makeIterator(), observer: observer, current: current).subscribeNext()
        return current
      })
  }

  /// Sends this sequence's values, then, once it completes, `second`'s.
  @inlinable public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
  where Source.Element == Element {
    Observable(signal.concat(second.asObservable().signal))
  }

  /// Sends, whenever one of `sources` sends and all have sent once, the array of their latest values;
  /// completes when all have completed (or when a value arrives after every other source completed without one, as RxSwift), fails
  /// with the first error.
  @inlinable public static func combineLatest(_ sources: [Observable<Element>]) -> Observable<[Element]> {
    guard let first = sources.first else { return .just([]) }
    let start = first.signal.map { RxElement([$0.value]) }
    return Observable<[Element]>(
      sources.dropFirst().reduce(start) { combined, next in
        combined.combineLatestFinishingAsRx(next.signal).map { RxElement($0.value + [$1.value]) }
      })
  }

  /// Sends, once each of `sources` has sent its n-th value, the array of the n-th values (RxSwift's
  /// `zip` of a collection): completes when all have completed, or when a value arrives that can never
  /// be paired (every other source completed); at once, with no value, for no sources. The arrays are
  /// sent in the order they were formed, one at a time, with no lock held.
  public static func zip(_ sources: [Observable<Element>]) -> Observable<[Element]> {
    guard !sources.isEmpty else { return .empty() }
    return Observable<[Element]>(
      Signal { observer in
        let storage = ZipCollectionStorage<RxElement<Element>>(count: sources.count)
        let subscriptions = sources.map { _ in SerialDisposable() }
        for (index, source) in sources.enumerated() {
          subscriptions[index].disposable = source.signal.subscribe { event in
            let action = storage.state.withCriticalRegion { state in
              switch event {
              case .next(let box): state.receive(box, from: index)
              case .finished: state.complete(index)
              case .failed(let error): state.fail(error)
              }
            }
            if let completed = action.disposeSource { subscriptions[completed].dispose() }
            guard action.send else { return }
            while let posted = storage.state.withCriticalRegion({ $0.outbox.next() }) {
              switch posted {
              case .next(let boxes): observer.send(boxes.map(\.value))
              case .failed(let error): observer.fail(error)
              case .finished: observer.finish()
              }
            }
          }
        }
        return Disposables.create(subscriptions)
      })
  }

  /// Sends, once each observable of `collection` has sent its n-th value, `resultSelector` of the n-th
  /// values (RxSwift's `zip(_:resultSelector:)` of a collection); an error it throws fails the sequence.
  public static func zip<Sources: Collection>(
    _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
  ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
    return Observable<Sources.Element.Element>.zip(collection.map { $0.asObservable() }).map(resultSelector)
  }

  /// Sends, whenever an observable of `collection` sends and all have sent once, `resultSelector` of
  /// their latest values (RxSwift's `combineLatest(_:resultSelector:)` of a collection; for no sources,
  /// `resultSelector([])`, then the end).
  public static func combineLatest<Sources: Collection>(
    _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
  ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
    return Observable<Sources.Element.Element>.combineLatest(collection.map { $0.asObservable() }).map(resultSelector)
  }

  /// Sends, with each value of this sequence, `resultSelector` of it and `second`'s latest value
  /// (nothing until `second` has sent once).
  @inlinable public func withLatestFrom<Source: ObservableConvertibleType, Result>(
    _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> Result
  ) -> Observable<Result> {
    let resultSelector = rxClosure(resultSelector)
    return Observable(
      signal.withLatestFrom(second.asObservable().signal).rxMap { try resultSelector($0.value, $1.value) })
  }

  /// Sends, with each value of this sequence, `second`'s latest value.
  @inlinable public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<
    Source.Element
  > {
    withLatestFrom(second) { $1 }
  }

  /// Mirrors whichever of this sequence and `right` sends an event first, disposing the other.
  @inlinable public func amb<Source: ObservableConvertibleType>(_ right: Source) -> Observable<Element>
  where Source.Element == Element {
    Observable.amb([asObservable(), right.asObservable()])
  }

  /// Mirrors whichever of `sequence` sends an event first, disposing the others (RxSwift's `amb`).
  @inlinable public static func amb<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    let sources = Array(sequence)
    return Observable(
      Signal { observer in
        // The index of the winner, once one has sent.
        let winner = Mutex<Int?>(nil)
        let subscriptions = sources.map { _ in SerialDisposable() }
        for (index, source) in sources.enumerated() {
          subscriptions[index].disposable = source.signal.subscribe { event in
            let (wins, losers) = winner.withCriticalRegion { winner -> (Bool, [SerialDisposable]) in
              if let current = winner { return (current == index, []) }
              winner = index
              return (true, subscriptions.enumerated().filter { $0.offset != index }.map(\.element))
            }
            guard wins else { return }
            for loser in losers { loser.dispose() }
            observer.send(event)
          }
        }
        return Disposables.create(subscriptions)
      })
  }
}

extension ObservableType {
  /// Sends, whenever either sends and both have sent once, `resultSelector` of their latest values.
  @inlinable public static func combineLatest<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2,
    resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    return Observable(
      source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
        .rxMap { try resultSelector($0.value, $1.value) })
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let pairs = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
    return Observable(
      pairs.combineLatestFinishingAsRx(source3.asObservable().signal)
        .rxMap { try resultSelector($0.0.value, $0.1.value, $1.value) })
  }

  /// Sends, once both have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2,
    resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    return Observable(
      source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal)
        .rxMap { try resultSelector($0.value, $1.value) })
  }

  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let pairs = source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal)
    return Observable(
      pairs.zipFinishingAsRx(source3.asObservable().signal)
        .rxMap { try resultSelector($0.0.value, $0.1.value, $1.value) })
  }
}

extension Observable {
  /// Sends, whenever either sends and both have sent once, the pair of their latest values.
  @inlinable public static func combineLatest<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2
  ) -> Observable<(O1.Element, O2.Element)> where Element == (O1.Element, O2.Element) {
    combineLatest(source1, source2) { ($0, $1) }
  }

  /// Sends, whenever one sends and all have sent once, the triple of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3) -> Observable<(O1.Element, O2.Element, O3.Element)>
  where Element == (O1.Element, O2.Element, O3.Element) {
    combineLatest(source1, source2, source3) { ($0, $1, $2) }
  }

  /// Sends, once both have sent their n-th value, the pair of the n-th values.
  @inlinable public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2
  ) -> Observable<(O1.Element, O2.Element)> where Element == (O1.Element, O2.Element) {
    zip(source1, source2) { ($0, $1) }
  }

  /// Sends, once all have sent their n-th value, the triple of the n-th values.
  @inlinable
  public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2, _ source3: O3
  ) -> Observable<(O1.Element, O2.Element, O3.Element)> where Element == (O1.Element, O2.Element, O3.Element) {
    zip(source1, source2, source3) { ($0, $1, $2) }
  }
}

/// The state of one subscription of a zip of a collection, under its lock.
private final class ZipCollectionStorage<Element: Sendable>: Sendable {
  let state: Mutex<ZipCollectionStateMachine<Element>>
  init(count: Int) { state = Mutex(ZipCollectionStateMachine(count: count)) }
}
