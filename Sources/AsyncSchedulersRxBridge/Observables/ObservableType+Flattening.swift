import AsyncSchedulers
import AsyncSignals
import Synchronization

extension ObservableType {
  /// The inner sequence `selector` makes, as a signal; an error it throws is a failing one.
  @inlinable static func inner<Source: ObservableConvertibleType>(
    _ selector: @escaping @Sendable (Element) throws -> Source
  ) -> @Sendable (Element) -> Signal<Source.Element, any Error> {
    { value in
      do { return try selector(value).asObservable().signal } catch { return .fail(error) }
    }
  }

  /// Subscribes to the sequence `selector` makes for each value and merges their values; ends with the
  /// first error, or when this sequence and every inner one have completed.
  @inlinable public func flatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping @Sendable (Element) throws -> Source
  )
    -> Observable<Source.Element>
  {
    Observable(signal.flatMap(Self.inner(selector)))
  }

  /// Subscribes to the sequence `selector` makes for each value, disposing the previous one: only the
  /// latest inner sequence's values are sent.
  @inlinable public func flatMapLatest<Source: ObservableConvertibleType>(
    _ selector: @escaping @Sendable (Element) throws -> Source
  ) -> Observable<Source.Element> {
    Observable(signal.map(Self.inner(selector)).switchToLatest())
  }

  /// Subscribes to the sequence `selector` makes for a value only when no inner sequence is running:
  /// values arriving meanwhile are dropped (RxSwift's `flatMapFirst`).
  @inlinable public func flatMapFirst<Source: ObservableConvertibleType>(
    _ selector: @escaping @Sendable (Element) throws -> Source
  ) -> Observable<Source.Element> {
    let upstream = signal
    let inner = Self.inner(selector)
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
  /// the next starts when the previous completes (RxSwift's `concatMap`).
  @inlinable public func concatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping @Sendable (Element) throws -> Source
  )
    -> Observable<Source.Element>
  {
    let upstream = signal
    let inner = Self.inner(selector)
    return Observable(
      Signal { observer in
        let queue = ConcatQueue<Element, Source.Element>(observer: observer, inner: inner)
        let outer = upstream.subscribe(linkedTo: observer) { event in
          switch event {
          case .next(let value): queue.enqueue(value)
          case .failed(let error): observer.fail(error)
          case .finished: queue.outerCompleted()
          }
        }
        return Disposables.create(outer, queue.current)
      })
  }
}

/// The state of one `concatMap` subscription: the values waiting for their inner sequence, and
/// whether one runs.
@usableFromInline final class ConcatQueue<Value: Sendable, Inner: Sendable>: Sendable {
  @usableFromInline struct State {
    @usableFromInline var waiting: [Value] = []
    @usableFromInline var running = false
    @usableFromInline var outerDone = false
  }

  @usableFromInline let state = Mutex(State())
  @usableFromInline let observer: SignalObserver<Inner, any Error>
  @usableFromInline let inner: @Sendable (Value) -> Signal<Inner, any Error>
  /// The running inner subscription.
  @usableFromInline let current = SerialDisposable()

  @inlinable init(
    observer: SignalObserver<Inner, any Error>, inner: @escaping @Sendable (Value) -> Signal<Inner, any Error>
  ) {
    self.observer = observer
    self.inner = inner
  }

  @inlinable func enqueue(_ value: Value) {
    let start = state.withCriticalRegion { state -> Bool in
      if state.running {
        state.waiting.append(value)
        return false
      }
      state.running = true
      return true
    }
    if start { run(value) }
  }

  @inlinable func outerCompleted() {
    let idle = state.withCriticalRegion { state -> Bool in
      state.outerDone = true
      return !state.running
    }
    if idle { observer.finish() }
  }

  /// Subscribes to `value`'s inner sequence; when it completes, to the next waiting one (in a loop, so
  /// inner sequences that complete synchronously do not grow the stack).
  @inlinable func run(_ first: Value) {
    var value = first
    while true {
      let completedSynchronously = Mutex<Bool?>(nil)
      current.disposable = inner(value).subscribe { [observer] event in
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
          if !isSynchronous { self.next() }
        }
      }
      let finishedDuringSubscribe = completedSynchronously.withCriticalRegion { flag -> Bool in
        if flag == true { return true }
        flag = false
        return false
      }
      guard finishedDuringSubscribe, let following = dequeue() else { return }
      value = following
    }
  }

  /// The value whose inner sequence runs next, or `nil` when none waits (then the outer end, if it came,
  /// is sent).
  @inlinable func dequeue() -> Value? {
    let (next, finish) = state.withCriticalRegion { state -> (Value?, Bool) in
      if state.waiting.isEmpty {
        state.running = false
        return (nil, state.outerDone)
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

  /// Sends the values of the latest inner sequence only (RxSwift's `switchLatest`).
  @inlinable public func switchLatest() -> Observable<Element.Element> { flatMapLatest { $0 } }

  /// Sends the values of the inner sequences one sequence after another.
  @inlinable public func concat() -> Observable<Element.Element> { concatMap { $0 } }
}
