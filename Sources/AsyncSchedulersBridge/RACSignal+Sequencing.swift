import AsyncSchedulers
import AsyncSignals

/// ReactiveObjC's sequencing, aggregating, side-effect and error operators, in the spellings
/// ReactiveObjC's headers have in Swift, on the native operators of `AsyncSignals`. Blocks run on the
/// thread sending the event, one event at a time, as in ReactiveObjC.
extension RACSignal {
  /// Sends `value` first, at subscription, then this signal's events (`-startWith:`).
  public func startWith(_ value: Value?) -> RACSignal<Value> { RACSignal(native.prepend(value)) }

  /// Skips the first `count` values (`-skip:`).
  public func skip(_ count: UInt) -> RACSignal<Value> { RACSignal(native.skip(Int(clamping: count))) }

  /// Sends values while `predicate` holds, then completes (`-takeWhileBlock:`).
  public func takeWhileBlock(_ predicate: @escaping @Sendable (Value?) -> Bool) -> RACSignal<Value> {
    RACSignal(native.prefix(while: predicate))
  }

  /// Skips values while `predicate` holds, then sends every value (`-skipWhileBlock:`).
  public func skipWhileBlock(_ predicate: @escaping @Sendable (Value?) -> Bool) -> RACSignal<Value> {
    RACSignal(native.drop(while: predicate))
  }

  /// Sends only the completion or the error (`-ignoreValues`).
  public func ignoreValues() -> RACSignal<Value> { RACSignal(native.ignoreValues()) }

  /// Ignores this signal's values and, once it completes, subscribes to the signal `block` returns
  /// (`-then:`); `block` runs then, on the completing thread. An error ends it without calling `block`.
  public func then<NewValue: Sendable>(_ block: @escaping @Sendable () -> RACSignal<NewValue>) -> RACSignal<NewValue> {
    let upstream = native
    return RACSignal<NewValue>(upstream.then(Signal { observer in block().native.subscribe(observer.send) }))
  }

  /// Sends one value on completion: `reduce` applied to every value from `start`
  /// (`-aggregateWithStart:reduce:`); an error passes through and nothing is sent.
  public func aggregate<Result: Sendable>(
    withStart start: Result?, reduce: @escaping @Sendable (Result?, Value?) -> Result?
  ) -> RACSignal<Result> {
    RACSignal<Result>(native.reduce(start, reduce))
  }

  /// Sends every value as one array on completion (`-collect`; an array of optionals, as ReactiveObjC
  /// puts `NSNull` for `nil`); an error passes through and nothing is sent.
  public func collect() -> RACSignal<[Value?]> { RACSignal<[Value?]>(native.collect().map { $0 }) }

  /// Runs `block` for each value before sending it on (`-doNext:`).
  public func doNext(_ block: @escaping @Sendable (Value?) -> Void) -> RACSignal<Value> {
    RACSignal(native.handleEvents(next: block))
  }

  /// Runs `block` for the error before sending it on (`-doError:`); `nil` stands for RAC's nil error.
  public func doError(_ block: @escaping @Sendable ((any Error)?) -> Void) -> RACSignal<Value> {
    RACSignal(native.handleEvents(failed: { error in block(error is RACNilError ? nil : error) }))
  }

  /// Runs `block` at completion before sending it on (`-doCompleted:`).
  public func doCompleted(_ block: @escaping @Sendable () -> Void) -> RACSignal<Value> {
    RACSignal(native.handleEvents(finished: block))
  }

  /// On error, subscribes to the signal `block` returns for it and sends its events instead
  /// (`-catch:`); `block` runs on the thread that sent the error. A `nil` signal completes.
  public func `catch`(_ block: @escaping @Sendable ((any Error)?) -> RACSignal<Value>?) -> RACSignal<Value> {
    RACSignal(native.catch { error in block(error is RACNilError ? nil : error)?.native ?? .empty() })
  }

  /// On error, subscribes to `signal` and sends its events instead (`-catchTo:`).
  public func `catch`(to signal: RACSignal<Value>) -> RACSignal<Value> {
    RACSignal(native.catch { _ in signal.native })
  }

  /// On error, subscribes again, up to `count` more times, the last error passing through; `0` (or a
  /// negative count) means until it completes, as in ReactiveObjC (`-retry:`).
  public func retry(_ count: Int) -> RACSignal<Value> {
    RACSignal(count > 0 ? native.retry(count) : native.retry())
  }

  /// On error, subscribes again, until it completes (`-retry`).
  public func retry() -> RACSignal<Value> { RACSignal(native.retry()) }
}

extension RACSignal {
  /// Sends each accumulated result, starting from `start` (`-scanWithStart:reduce:`); `reduce` runs on
  /// the sending thread, one value at a time.
  public func scan<Result: Sendable>(
    withStart start: Result?, reduce: @escaping @Sendable (Result?, Value?) -> Result?
  ) -> RACSignal<Result> {
    RACSignal<Result>(native.scan(start, reduce))
  }

  /// Sends every event as a ``RACEvent`` value, then completes (`-materialize`); never errors.
  public func materialize() -> RACSignal<RACEvent<Value>> {
    RACSignal<RACEvent<Value>>(
      native.materialize().map { event -> RACEvent<Value>? in
        switch event {
        case .next(let value): .event(withValue: value)
        case .failed(let error): .event(withError: error is RACNilError ? nil : error)
        case .finished: .completedEvent()
        }
      }.setFailureType(to: (any Error).self))
  }
}

extension RACSignal where Value: Equatable {
  /// Skips a value equal to the one before it (`-distinctUntilChanged`; `nil` equals `nil`).
  public func distinctUntilChanged() -> RACSignal<Value> { RACSignal(native.distinctUntilChanged()) }
}

extension RACSignal {
  /// Turns a signal of ``RACEvent`` values back into their events (`-dematerialize`): a value event's
  /// value is sent, a completed or error event ends the signal.
  public func dematerialize<Inner: Sendable>() -> RACSignal<Inner> where Value == RACEvent<Inner> {
    let events = native
    return RACSignal<Inner>(
      Signal { observer in
        events.subscribe { event in
          switch event {
          case .next(let racEvent?):
            switch racEvent.eventType {
            case .next: observer.send(racEvent.value)
            case .error: observer.fail(racEvent.error ?? RACNilError())
            case .completed: observer.finish()
            }
          case .next(nil): break
          case .failed(let error): observer.fail(error)
          case .finished: observer.finish()
          }
        }
      })
  }
}
