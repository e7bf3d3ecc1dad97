// Generated: Single.zip and Maybe.zip of 2 to 8 sources and of a collection, as RxSwift generates
// them (its arity templates); each is `Observable.zip` of the same sources, with its behaviour.

extension Single {
  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>,
    resultSelector: @escaping (E1, E2) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>,
    resultSelector: @escaping (E1, E2, E3) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    _ source6: Single<E6>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable
  >(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    _ source6: Single<E6>, _ source7: Single<E7>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable, E8: Sendable
  >(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    _ source6: Single<E6>, _ source7: Single<E7>, _ source8: Single<E8>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
  ) -> Single<Element> {
    return Single(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
        resultSelector: resultSelector))
  }

  /// Sends the values of all, once each has sent its one, as an array in their order (`Observable.zip`);
  /// for no sources, `[]` at once, as RxSwift.
  public static func zip<Sources: Swift.Collection>(_ sources: Sources) -> Single<[Element]>
  where Sources.Element == Single<Element> {
    guard !sources.isEmpty else { return Single<[Element]>(source: .just([])) }
    return Single<[Element]>(source: Observable.zip(sources.map { $0.asObservable() }))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`); for no
  /// sources, `resultSelector([])` on subscription, as RxSwift.
  public static func zip<Sources: Swift.Collection, Result: Sendable>(
    _ sources: Sources, resultSelector: @escaping ([Element]) throws -> Result
  ) -> Single<Result> where Sources.Element == Single<Element> {
    return Single<Result>(source: zip(sources).asObservable().map(resultSelector))
  }
}

extension Single {
  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>
  ) -> Single<Element> where Element == (E1, E2) {
    zip(source1, source2) { ($0, $1) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>
  ) -> Single<Element> where Element == (E1, E2, E3) {
    zip(source1, source2, source3) { ($0, $1, $2) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>
  ) -> Single<Element> where Element == (E1, E2, E3, E4) {
    zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>
  ) -> Single<Element> where Element == (E1, E2, E3, E4, E5) {
    zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    _ source6: Single<E6>
  ) -> Single<Element> where Element == (E1, E2, E3, E4, E5, E6) {
    zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable
  >(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    _ source6: Single<E6>, _ source7: Single<E7>
  ) -> Single<Element> where Element == (E1, E2, E3, E4, E5, E6, E7) {
    zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable, E8: Sendable
  >(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>, _ source5: Single<E5>,
    _ source6: Single<E6>, _ source7: Single<E7>, _ source8: Single<E8>
  ) -> Single<Element> where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
    zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
  }
}

extension Maybe {
  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>,
    resultSelector: @escaping (E1, E2) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(source: Observable.zip(source1.asObservable(), source2.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>,
    resultSelector: @escaping (E1, E2, E3) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    _ source6: Maybe<E6>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable
  >(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    _ source6: Maybe<E6>, _ source7: Maybe<E7>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable, E8: Sendable
  >(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    _ source6: Maybe<E6>, _ source7: Maybe<E7>, _ source8: Maybe<E8>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
  ) -> Maybe<Element> {
    return Maybe(
      source: Observable.zip(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
        resultSelector: resultSelector))
  }

  /// Sends the values of all, once each has sent its one, as an array in their order (`Observable.zip`);
  /// for no sources, `[]` at once, as RxSwift.
  public static func zip<Sources: Swift.Collection>(_ sources: Sources) -> Maybe<[Element]>
  where Sources.Element == Maybe<Element> {
    guard !sources.isEmpty else { return Maybe<[Element]>(source: .just([])) }
    return Maybe<[Element]>(source: Observable.zip(sources.map { $0.asObservable() }))
  }

  /// Sends `resultSelector` of the values of all, once each has sent its one (`Observable.zip`); for no
  /// sources, `resultSelector([])` on subscription, as RxSwift.
  public static func zip<Sources: Swift.Collection, Result: Sendable>(
    _ sources: Sources, resultSelector: @escaping ([Element]) throws -> Result
  ) -> Maybe<Result> where Sources.Element == Maybe<Element> {
    return Maybe<Result>(source: zip(sources).asObservable().map(resultSelector))
  }
}

extension Maybe {
  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>
  ) -> Maybe<Element> where Element == (E1, E2) {
    zip(source1, source2) { ($0, $1) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>
  ) -> Maybe<Element> where Element == (E1, E2, E3) {
    zip(source1, source2, source3) { ($0, $1, $2) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>
  ) -> Maybe<Element> where Element == (E1, E2, E3, E4) {
    zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>
  ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5) {
    zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    _ source6: Maybe<E6>
  ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5, E6) {
    zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable
  >(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    _ source6: Maybe<E6>, _ source7: Maybe<E7>
  ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5, E6, E7) {
    zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
  }

  /// Sends the values of all as a tuple, once each has sent its one (`Observable.zip`).
  public static func zip<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable, E8: Sendable
  >(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>, _ source5: Maybe<E5>,
    _ source6: Maybe<E6>, _ source7: Maybe<E7>, _ source8: Maybe<E8>
  ) -> Maybe<Element> where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
    zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
  }
}
