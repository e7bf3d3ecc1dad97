extension ObservableType {
  /// Accepts every value into each of `relays` (RxRelay's `bind(to:)`); the end is not forwarded. The
  /// relays accept on the thread that sends each value.
  public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
    subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value into each of `relays` (RxRelay's `bind(to:)`); the end is not forwarded.
  public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
    subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value into each of `relays` (RxRelay's `bind(to:)`); the end is not forwarded.
  public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
    subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value, wrapped, into each of `relays` of optional values (RxRelay's `bind(to:)`);
  /// the end is not forwarded.
  public func bind(to relays: PublishRelay<Element?>...) -> any Disposable {
    subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value, wrapped, into each of `relays` of optional values (RxRelay's `bind(to:)`).
  public func bind(to relays: BehaviorRelay<Element?>...) -> any Disposable {
    subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value, wrapped, into each of `relays` of optional values (RxRelay's `bind(to:)`).
  public func bind(to relays: ReplayRelay<Element?>...) -> any Disposable {
    subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }
}

extension PublishRelay {
  /// The relay as an `Infallible` (it never fails and never completes).
  @inlinable public func asInfallible() -> Infallible<Element> { Infallible(source: asObservable()) }
}

extension BehaviorRelay {
  /// The relay as an `Infallible`: its current value first, then each value it accepts.
  @inlinable public func asInfallible() -> Infallible<Element> { Infallible(source: asObservable()) }
}

extension ReplayRelay {
  /// The relay as an `Infallible`: its replayed values first, then each value it accepts.
  @inlinable public func asInfallible() -> Infallible<Element> { Infallible(source: asObservable()) }
}
