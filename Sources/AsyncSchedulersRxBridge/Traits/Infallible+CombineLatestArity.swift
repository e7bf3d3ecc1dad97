// Generated: Infallible's combineLatest of 2 to 8 sources, as RxSwift generates them (its arity
// templates). Each is the Observable operator of the same arity over the sources, which cannot fail.

extension Infallible {
  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>
  ) -> Infallible<(E1, E2)> where Element == (E1, E2) {
    Infallible(source: Observable.combineLatest(source1.asObservable(), source2.asObservable()))
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>,
    resultSelector: @escaping (E1, E2, E3) -> Element
  ) -> Infallible {
    return Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), resultSelector: resultSelector))
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>
  ) -> Infallible<(E1, E2, E3)> where Element == (E1, E2, E3) {
    Infallible(source: Observable.combineLatest(source1.asObservable(), source2.asObservable(), source3.asObservable()))
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    resultSelector: @escaping (E1, E2, E3, E4) -> Element
  ) -> Infallible {
    return Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        resultSelector: resultSelector))
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>
  ) -> Infallible<(E1, E2, E3, E4)> where Element == (E1, E2, E3, E4) {
    Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable()))
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>,
    resultSelector: @escaping (E1, E2, E3, E4, E5) -> Element
  ) -> Infallible {
    return Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), resultSelector: resultSelector))
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>
  ) -> Infallible<(E1, E2, E3, E4, E5)> where Element == (E1, E2, E3, E4, E5) {
    Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable()))
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>, _ source6: Infallible<E6>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6) -> Element
  ) -> Infallible {
    return Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), resultSelector: resultSelector))
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable>(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>, _ source6: Infallible<E6>
  ) -> Infallible<(E1, E2, E3, E4, E5, E6)> where Element == (E1, E2, E3, E4, E5, E6) {
    Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable()))
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable
  >(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>, _ source6: Infallible<E6>, _ source7: Infallible<E7>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) -> Element
  ) -> Infallible {
    return Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), resultSelector: resultSelector))
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable
  >(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>, _ source6: Infallible<E6>, _ source7: Infallible<E7>
  ) -> Infallible<(E1, E2, E3, E4, E5, E6, E7)> where Element == (E1, E2, E3, E4, E5, E6, E7) {
    Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable()))
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable, E8: Sendable
  >(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>, _ source6: Infallible<E6>, _ source7: Infallible<E7>, _ source8: Infallible<E8>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) -> Element
  ) -> Infallible {
    return Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable(),
        resultSelector: resultSelector))
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    E1: Sendable, E2: Sendable, E3: Sendable, E4: Sendable, E5: Sendable, E6: Sendable, E7: Sendable, E8: Sendable
  >(
    _ source1: Infallible<E1>, _ source2: Infallible<E2>, _ source3: Infallible<E3>, _ source4: Infallible<E4>,
    _ source5: Infallible<E5>, _ source6: Infallible<E6>, _ source7: Infallible<E7>, _ source8: Infallible<E8>
  ) -> Infallible<(E1, E2, E3, E4, E5, E6, E7, E8)> where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
    Infallible(
      source: Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(), source4.asObservable(),
        source5.asObservable(), source6.asObservable(), source7.asObservable(), source8.asObservable()))
  }
}
