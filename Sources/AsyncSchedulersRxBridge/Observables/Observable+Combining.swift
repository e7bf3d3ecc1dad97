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
    let start = first.signal.map { [$0] }
    return Observable<[Element]>(
      sources.dropFirst().reduce(start) { combined, next in
        combined.combineLatestFinishingAsRx(next.signal).map { $0 + [$1] }
      })
  }

  /// Sends, whenever one of `sources` sends and all have sent once, `resultSelector` of their latest
  /// values.
  @inlinable public static func combineLatest<Result: Sendable>(
    _ sources: [Observable<Element>], resultSelector: @escaping @Sendable ([Element]) throws -> Result
  ) -> Observable<Result> {
    combineLatest(sources).map(resultSelector)
  }

  /// Sends, once each of `sources` has sent its n-th value, the array of the n-th values; completes
  /// when one has completed and its values are used up.
  @inlinable public static func zip(_ sources: [Observable<Element>]) -> Observable<[Element]> {
    guard let first = sources.first else { return .just([]) }
    let start = first.signal.map { [$0] }
    return Observable<[Element]>(
      sources.dropFirst().reduce(start) { zipped, next in zipped.zip(next.signal).map { $0 + [$1] } })
  }

  /// Sends, with each value of this sequence, `resultSelector` of it and `second`'s latest value
  /// (nothing until `second` has sent once).
  @inlinable public func withLatestFrom<Source: ObservableConvertibleType, Result: Sendable>(
    _ second: Source, resultSelector: @escaping @Sendable (Element, Source.Element) throws -> Result
  ) -> Observable<Result> {
    Observable<(Element, Source.Element)>(signal.withLatestFrom(second.asObservable().signal)).map(resultSelector)
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
    resultSelector: @escaping @Sendable (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    Observable<(O1.Element, O2.Element)>(
      source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
    )
    .map(resultSelector)
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    let pairs = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
    return Observable<((O1.Element, O2.Element), O3.Element)>(
      pairs.combineLatestFinishingAsRx(source3.asObservable().signal)
    )
    .map { try resultSelector($0.0, $0.1, $1) }
  }

  /// Sends, once both have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2,
    resultSelector: @escaping @Sendable (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    Observable<(O1.Element, O2.Element)>(source1.asObservable().signal.zip(source2.asObservable().signal))
      .map(resultSelector)
  }

  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    let pairs = source1.asObservable().signal.zip(source2.asObservable().signal)
    return Observable<((O1.Element, O2.Element), O3.Element)>(pairs.zip(source3.asObservable().signal))
      .map { try resultSelector($0.0, $0.1, $1) }
  }
}

extension Observable {
  /// Sends, whenever either sends and both have sent once, the pair of their latest values.
  @inlinable public static func combineLatest<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2
  ) -> Observable<(O1.Element, O2.Element)> where Element == (O1.Element, O2.Element) {
    Observable(source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal))
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
    Observable(source1.asObservable().signal.zip(source2.asObservable().signal))
  }

  /// Sends, once all have sent their n-th value, the triple of the n-th values.
  @inlinable
  public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2, _ source3: O3
  ) -> Observable<(O1.Element, O2.Element, O3.Element)> where Element == (O1.Element, O2.Element, O3.Element) {
    zip(source1, source2, source3) { ($0, $1, $2) }
  }
}
