import AsyncSchedulers
import AsyncSignals
import Synchronization

extension ObservableType {
  /// The inner sequence `selector` makes, as a signal; an error it throws is a failing one.
  @inlinable static func inner<Source: ObservableConvertibleType>(
    _ selector: @escaping @Sendable (Element) throws -> Source
  ) -> @Sendable (RxElement<Element>) -> Signal<RxElement<Source.Element>, any Error> {
    { box in
      do { return try selector(box.value).asObservable().signal } catch { return .fail(error) }
    }
  }

  /// Subscribes to the sequence `selector` makes for each value and merges their values; ends with the
  /// first error, or when this sequence and every inner one have completed.
  @inlinable public func flatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  )
    -> Observable<Source.Element>
  {
    return Observable(signal.flatMap(Self.inner(rxClosure(selector))))
  }

  /// Subscribes to the sequence `selector` makes for each value, disposing the previous one: only the
  /// latest inner sequence's values are sent.
  @inlinable public func flatMapLatest<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  ) -> Observable<Source.Element> {
    return Observable(signal.map(Self.inner(rxClosure(selector))).switchToLatest())
  }

  /// Subscribes to the sequence `selector` makes for a value only when no inner sequence is running:
  /// values arriving meanwhile are dropped (RxSwift's `flatMapFirst`).
  @inlinable public func flatMapFirst<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  ) -> Observable<Source.Element> {
    let upstream = signal
    let inner = Self.inner(rxClosure(selector))
    return Observable(
      Signal { observer in
        // Whether an inner sequence runs, and whether the outer one completed.
        let state = Mutex((running: false, outerDone: false))
        let innerSubscription = SerialDisposable()
        let outer = upstream.subscribe(linkedTo: observer) { event in
          switch event {
          case .next(let value):
            let start = state.withCriticalRegion { state -> Bool in
              guard !state.running else { return false }
              state.running = true
              return true
            }
            guard start else { return }
            innerSubscription.disposable = inner(value).subscribe { innerEvent in
              switch innerEvent {
              case .next(let innerValue): observer.send(innerValue)
              case .failed(let error): observer.fail(error)
              case .finished:
                let outerDone = state.withCriticalRegion { state -> Bool in
                  state.running = false
                  return state.outerDone
                }
                if outerDone { observer.finish() }
              }
            }
          case .failed(let error): observer.fail(error)
          case .finished:
            let running = state.withCriticalRegion { state -> Bool in
              state.outerDone = true
              return state.running
            }
            if !running { observer.finish() }
          }
        }
        return Disposables.create(outer, innerSubscription)
      })
  }

  /// Subscribes to the sequences `selector` makes one after another, in the order of the values:
  /// the next starts when the previous completes (RxSwift's `concatMap`). `selector` runs when each
  /// value arrives, as RxSwift's (`map(selector).merge(maxConcurrent: 1)`), so an error it throws fails
  /// the sequence at once, not when that value's turn comes.
  @inlinable public func concatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  )
    -> Observable<Source.Element>
  {
    let selector = rxClosure(selector)
    return map { try selector($0).asObservable() }.merge(maxConcurrent: 1)
  }
}

/// The state of one `concatMap` or `merge(maxConcurrent:)` subscription: the values waiting for their
/// inner sequence, and how many inner sequences run (at most `width`; `concatMap` is width 1).
@usableFromInline final class ConcatQueue<Value: Sendable, Inner>: Sendable {
  @usableFromInline struct State {
    @usableFromInline var waiting: [Value] = []
    @usableFromInline var running = 0
    @usableFromInline var outerDone = false
  }

  @usableFromInline let state = Mutex(State())
  @usableFromInline let width: Int
  @usableFromInline let observer: SignalObserver<RxElement<Inner>, any Error>
  @usableFromInline let inner: @Sendable (Value) -> Signal<RxElement<Inner>, any Error>
  /// The running inner subscriptions.
  @usableFromInline let subscriptions = CompositeDisposable()

  @inlinable init(
    width: Int, observer: SignalObserver<RxElement<Inner>, any Error>,
    inner: @escaping @Sendable (Value) -> Signal<RxElement<Inner>, any Error>
  ) {
    self.width = width
    self.observer = observer
    self.inner = inner
  }

  /// Subscribes `upstream` for `observer`, running the inner sequence of each value with at most
  /// `width` at once; returns what disposes the subscription.
  @inlinable static func subscribe(
    _ upstream: Signal<Value, any Error>, width: Int, observer: SignalObserver<RxElement<Inner>, any Error>,
    inner: @escaping @Sendable (Value) -> Signal<RxElement<Inner>, any Error>
  ) -> any Disposable {
    let queue = ConcatQueue(width: width, observer: observer, inner: inner)
    let outer = upstream.subscribe(linkedTo: observer) { event in
      switch event {
      case .next(let value): queue.enqueue(value)
      case .failed(let error): observer.fail(error)
      case .finished: queue.outerCompleted()
      }
    }
    return Disposables.create(outer, queue.subscriptions)
  }

  @inlinable func enqueue(_ value: Value) {
    let start = state.withCriticalRegion { state -> Bool in
      if state.running >= width {
        state.waiting.append(value)
        return false
      }
      state.running += 1
      return true
    }
    if start { run(value) }
  }

  @inlinable func outerCompleted() {
    let idle = state.withCriticalRegion { state -> Bool in
      state.outerDone = true
      return state.running == 0
    }
    if idle { observer.finish() }
  }

  /// Subscribes to `value`'s inner sequence; when it completes, to the next waiting one (in a loop, so
  /// inner sequences that complete synchronously do not grow the stack).
  @usableFromInline func run(_ first: Value) {
    var value = first
    while true {
      let completedSynchronously = Mutex<Bool?>(nil)
      let slot = SerialDisposable()
      let handle = subscriptions.add(slot)
      slot.disposable = inner(value).subscribe { [observer] event in
        switch event {
        case .next(let innerValue): observer.send(innerValue)
        case .failed(let error): observer.fail(error)
        case .finished:
          let isSynchronous = completedSynchronously.withCriticalRegion { flag -> Bool in
            if flag == nil {
              flag = true
              return true
            }
            return false
          }
          if !isSynchronous {
            _ = self.subscriptions.remove(handle)
            self.next()
          }
        }
      }
      let finishedDuringSubscribe = completedSynchronously.withCriticalRegion { flag -> Bool in
        if flag == true { return true }
        flag = false
        return false
      }
      guard finishedDuringSubscribe else { return }
      _ = subscriptions.remove(handle)
      guard let following = dequeue() else { return }
      value = following
    }
  }

  /// The value whose inner sequence runs next, or `nil` when none waits (then the outer end, if it came,
  /// is sent).
  @inlinable func dequeue() -> Value? {
    let (next, finish) = state.withCriticalRegion { state -> (Value?, Bool) in
      if state.waiting.isEmpty {
        state.running -= 1
        return (nil, state.outerDone && state.running == 0)
      }
      return (state.waiting.removeFirst(), false)
    }
    if finish { observer.finish() }
    return next
  }

  @inlinable func next() {
    if let following = dequeue() { run(following) }
  }
}

extension ObservableType where Element: ObservableConvertibleType {
  /// Merges the values of the inner sequences this sequence sends.
  @inlinable public func merge() -> Observable<Element.Element> { flatMap { $0 } }

  /// Merges the values of the inner sequences this sequence sends, at most `maxConcurrent` subscribed
  /// at once: the others wait, in order, for one to complete (RxSwift's `merge(maxConcurrent:)`;
  /// `1` is `concat()`).
  /// - Precondition: `maxConcurrent > 0`.
  public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
    checkArgument(
      maxConcurrent > 0, "Observable.merge(maxConcurrent:): maxConcurrent must be positive (got \(maxConcurrent))")
    let upstream = signal
    let inner = Self.inner { $0 }
    return Observable(
      Signal { observer in
        ConcatQueue<RxElement<Element>, Element.Element>.subscribe(
          upstream, width: maxConcurrent, observer: observer, inner: inner)
      })
  }

  /// Sends the values of the latest inner sequence only (RxSwift's `switchLatest`).
  @inlinable public func switchLatest() -> Observable<Element.Element> { flatMapLatest { $0 } }

  /// Sends the values of the inner sequences one sequence after another.
  @inlinable public func concat() -> Observable<Element.Element> { concatMap { $0 } }
}
