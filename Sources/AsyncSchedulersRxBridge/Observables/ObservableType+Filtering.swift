import AsyncSchedulers
import AsyncSignals
import Synchronization

/// Whether `take(while:behavior:)` and `take(until:behavior:)` also send the value that ends them
/// (RxSwift's `TakeBehavior`).
public enum TakeBehavior: Sendable {
  /// The value that ends the sequence is sent too.
  case inclusive
  /// The value that ends the sequence is not sent.
  case exclusive
}

extension ObservableType {
  /// Sends the first `count` values, then completes (at once for `count == 0`).
  /// - Precondition: `count >= 0`.
  @inlinable public func take(_ count: Int) -> Observable<Element> {
    checkArgument(count >= 0, "Observable.take: count must not be negative (got \(count))")
    return Observable(signal.take(count))
  }

  /// Sends the last `count` values when the sequence completes.
  /// - Precondition: `count >= 0`.
  @inlinable public func takeLast(_ count: Int) -> Observable<Element> {
    checkArgument(count >= 0, "Observable.takeLast: count must not be negative (got \(count))")
    return lift {
      let buffer = SubscriptionState<[Element]>([])
      return { event, observer in
        switch event {
        case .next(let value):
          guard count > 0 else { return }
          if buffer.value.count == count { buffer.value.removeFirst() }
          buffer.value.append(value)
        case .error(let error): observer.fail(error)
        case .completed:
          for value in buffer.value { observer.send(value) }
          observer.finish()
        }
      }
    }
  }

  /// Sends values until `other` sends a value, then completes; an error of `other` fails the sequence,
  /// and `other` completing without a value changes nothing (RxSwift's `take(until:)`: `other` is
  /// subscribed first).
  public func take<Source: ObservableConvertibleType>(until other: Source) -> Observable<Element> {
    let upstream = signal
    let trigger = other.asObservable().signal
    return Observable(
      Signal { observer in
        let gate = SerialDisposable()
        gate.disposable = trigger.subscribe { event in
          switch event {
          case .next: observer.finish()
          case .failed(let error): observer.fail(error)
          case .finished: break
          }
        }
        let source = upstream.subscribe(linkedTo: observer) { observer.send($0) }
        return Disposables.create(gate, source)
      })
  }

  /// Sends values while `predicate` holds; the first that fails it completes the sequence, and is sent
  /// too with `.inclusive`.
  @inlinable public func take(
    while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  )
    -> Observable<Element>
  {
    let predicate = rxClosure(predicate)
    return liftValues { value, observer in
      if try predicate(value) {
        observer.send(value)
      } else {
        if behavior == .inclusive { observer.send(value) }
        observer.finish()
      }
    }
  }

  /// Sends values until one passes `predicate`, which completes the sequence and is sent too with
  /// `.inclusive`.
  @inlinable public func take(
    until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive
  )
    -> Observable<Element>
  {
    let predicate = rxClosure(predicate)
    return take(while: { try !predicate($0) }, behavior: behavior)
  }

  /// Drops the first `count` values.
  /// - Precondition: `count >= 0`.
  @inlinable public func skip(_ count: Int) -> Observable<Element> {
    checkArgument(count >= 0, "Observable.skip: count must not be negative (got \(count))")
    return Observable(signal.skip(count))
  }

  /// Drops values while `predicate` holds, then sends all.
  @inlinable public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    let predicate = rxClosure(predicate)
    return lift {
      let skipping = SubscriptionState(true)
      return { event, observer in
        switch event {
        case .next(let value):
          if skipping.value, try predicate(value) { return }
          skipping.value = false
          observer.send(value)
        case .error(let error): observer.fail(error)
        case .completed: observer.finish()
        }
      }
    }
  }

  /// Drops values until `other` sends a value, then sends all (RxSwift's `skip(until:)`): an error of
  /// `other` fails the sequence; the source completing before `other` sent a value ends the subscription
  /// without an event, as in RxSwift. The source is subscribed first.
  public func skip<Source: ObservableConvertibleType>(until other: Source) -> Observable<Element> {
    skip(until: other, endsBeforeOpening: false)
  }

  /// `skip(until:)`; with `endsBeforeOpening`, the source's completion is forwarded also before `other`
  /// sent a value (the time-based `skip(_:scheduler:)`, as RxSwift's).
  func skip<Source: ObservableConvertibleType>(until other: Source, endsBeforeOpening: Bool) -> Observable<Element> {
    let upstream = signal
    let trigger = other.asObservable().signal
    return Observable(
      Signal { observer in
        let gate = SerialDisposable()
        let openLock = OpenFlag()
        let source = upstream.subscribe(linkedTo: observer) { event in
          switch event {
          case .next(let value): if openLock.isOpen { observer.send(value) }
          case .failed(let error): observer.fail(error)
          case .finished:
            if openLock.isOpen || endsBeforeOpening { observer.finish() } else { gate.dispose() }
          }
        }
        gate.disposable = trigger.subscribe { event in
          switch event {
          case .next:
            openLock.open()
            gate.dispose()
          case .failed(let error): observer.fail(error)
          case .finished: break
          }
        }
        return Disposables.create(gate, source)
      })
  }

  /// Sends the value at `index` and completes; fails with `RxError.argumentOutOfRange` if the sequence
  /// completes first.
  /// - Precondition: `index >= 0`.
  @inlinable public func element(at index: Int) -> Observable<Element> {
    checkArgument(index >= 0, "Observable.element(at:): index must not be negative (got \(index))")
    return lift {
      let seen = SubscriptionState(0)
      return { event, observer in
        switch event {
        case .next(let value):
          if seen.value == index {
            observer.send(value)
            observer.finish()
          }
          seen.value += 1
        case .error(let error): observer.fail(error)
        case .completed: observer.fail(RxError.argumentOutOfRange)
        }
      }
    }
  }
}

/// A flag set once, read from any thread.
private final class OpenFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  var isOpen: Bool { flag.load(ordering: .acquiring) }
  func open() { flag.store(true, ordering: .releasing) }
}
