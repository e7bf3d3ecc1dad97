// Generated: combineLatest and zip of 4 to 8 sources, as RxSwift generates them (its arity
// templates). Each nests the pairwise operator of the native signals, so the behaviour is the two-source
// operator's: one implementation, whatever the arity.
import AsyncSignals

extension ObservableType {
  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
      .combineLatestFinishingAsRx(source3.asObservable().signal).combineLatestFinishingAsRx(
        source4.asObservable().signal)
    return Observable(nested).map { try resultSelector($0.0.0.0, $0.0.0.1, $0.0.1, $0.1) }
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
      .combineLatestFinishingAsRx(source3.asObservable().signal).combineLatestFinishingAsRx(
        source4.asObservable().signal
      ).combineLatestFinishingAsRx(source5.asObservable().signal)
    return Observable(nested).map { try resultSelector($0.0.0.0.0, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
      .combineLatestFinishingAsRx(source3.asObservable().signal).combineLatestFinishingAsRx(
        source4.asObservable().signal
      ).combineLatestFinishingAsRx(source5.asObservable().signal).combineLatestFinishingAsRx(
        source6.asObservable().signal)
    return Observable(nested).map { try resultSelector($0.0.0.0.0.0, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws ->
      Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
      .combineLatestFinishingAsRx(source3.asObservable().signal).combineLatestFinishingAsRx(
        source4.asObservable().signal
      ).combineLatestFinishingAsRx(source5.asObservable().signal).combineLatestFinishingAsRx(
        source6.asObservable().signal
      ).combineLatestFinishingAsRx(source7.asObservable().signal)
    return Observable(nested).map {
      try resultSelector($0.0.0.0.0.0.0, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1)
    }
  }

  /// Sends, whenever one sends and all have sent once, `resultSelector` of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    _ source8: O8,
    resultSelector:
      @escaping (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element
      ) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.combineLatestFinishingAsRx(source2.asObservable().signal)
      .combineLatestFinishingAsRx(source3.asObservable().signal).combineLatestFinishingAsRx(
        source4.asObservable().signal
      ).combineLatestFinishingAsRx(source5.asObservable().signal).combineLatestFinishingAsRx(
        source6.asObservable().signal
      ).combineLatestFinishingAsRx(source7.asObservable().signal).combineLatestFinishingAsRx(
        source8.asObservable().signal)
    return Observable(nested).map {
      try resultSelector(
        $0.0.0.0.0.0.0.0, $0.0.0.0.0.0.0.1, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1)
    }
  }
}

extension Observable {
  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element) {
    combineLatest(source1, source2, source3, source4) { ($0, $1, $2, $3) }
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) {
    combineLatest(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) {
    combineLatest(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) {
    combineLatest(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
  }

  /// Sends, whenever one sends and all have sent once, the tuple of their latest values.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    _ source8: O8
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) {
    combineLatest(source1, source2, source3, source4, source5, source6, source7, source8) {
      ($0, $1, $2, $3, $4, $5, $6, $7)
    }
  }
}

extension ObservableType {
  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal).zipFinishingAsRx(
      source3.asObservable().signal
    )
    .zipFinishingAsRx(source4.asObservable().signal)
    return Observable(nested).map { try resultSelector($0.0.0.0, $0.0.0.1, $0.0.1, $0.1) }
  }

  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal).zipFinishingAsRx(
      source3.asObservable().signal
    )
    .zipFinishingAsRx(source4.asObservable().signal).zipFinishingAsRx(source5.asObservable().signal)
    return Observable(nested).map { try resultSelector($0.0.0.0.0, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
  }

  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal).zipFinishingAsRx(
      source3.asObservable().signal
    )
    .zipFinishingAsRx(source4.asObservable().signal).zipFinishingAsRx(source5.asObservable().signal).zipFinishingAsRx(
      source6.asObservable().signal)
    return Observable(nested).map { try resultSelector($0.0.0.0.0.0, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) }
  }

  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) throws ->
      Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal).zipFinishingAsRx(
      source3.asObservable().signal
    )
    .zipFinishingAsRx(source4.asObservable().signal).zipFinishingAsRx(source5.asObservable().signal).zipFinishingAsRx(
      source6.asObservable().signal
    ).zipFinishingAsRx(
      source7.asObservable().signal)
    return Observable(nested).map {
      try resultSelector($0.0.0.0.0.0.0, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1)
    }
  }

  /// Sends, once all have sent their n-th value, `resultSelector` of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    _ source8: O8,
    resultSelector:
      @escaping (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element
      ) throws -> Element
  ) -> Observable<Element> {
    let resultSelector = rxClosure(resultSelector)
    let nested = source1.asObservable().signal.zipFinishingAsRx(source2.asObservable().signal).zipFinishingAsRx(
      source3.asObservable().signal
    )
    .zipFinishingAsRx(source4.asObservable().signal).zipFinishingAsRx(source5.asObservable().signal).zipFinishingAsRx(
      source6.asObservable().signal
    ).zipFinishingAsRx(
      source7.asObservable().signal
    ).zipFinishingAsRx(source8.asObservable().signal)
    return Observable(nested).map {
      try resultSelector(
        $0.0.0.0.0.0.0.0, $0.0.0.0.0.0.0.1, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1)
    }
  }
}

extension Observable {
  /// Sends, once all have sent their n-th value, the tuple of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element) {
    zip(source1, source2, source3, source4) { ($0, $1, $2, $3) }
  }

  /// Sends, once all have sent their n-th value, the tuple of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) {
    zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
  }

  /// Sends, once all have sent their n-th value, the tuple of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) {
    zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
  }

  /// Sends, once all have sent their n-th value, the tuple of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element) {
    zip(source1, source2, source3, source4, source5, source6, source7) { ($0, $1, $2, $3, $4, $5, $6) }
  }

  /// Sends, once all have sent their n-th value, the tuple of the n-th values.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType, O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6, _ source7: O7,
    _ source8: O8
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>
  where Element == (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element) {
    zip(source1, source2, source3, source4, source5, source6, source7, source8) { ($0, $1, $2, $3, $4, $5, $6, $7) }
  }
}
