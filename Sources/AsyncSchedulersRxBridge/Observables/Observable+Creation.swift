import AsyncSchedulers
import AsyncSignals

extension ObservableType {
  /// A sequence whose subscriptions run `step` recursively on `scheduler` from `initial`: each step
  /// sends through the observer and returns the next state, or `nil` when it ended the sequence. The
  /// recursion stops once the subscription has ended (disposed, or ended by a downstream `take`), even
  /// while the subscribe call that started it is still on the stack (a trampolining scheduler).
  ///
  /// On the trampoline (`CurrentThreadScheduler`), a step whose successor would be queued with nothing
  /// else queued before it runs that successor in place: the order is the same (it would run next), and
  /// a step costs no scheduled item. With other work queued, the successor is queued behind it, so
  /// recursions on one trampoline interleave as RxSwift's do.
  @inlinable static func recursive<State: Sendable>(
    on scheduler: some ImmediateSchedulerType, from initial: State,
    _ step: @escaping @Sendable (State, SignalObserver<RxElement<Element>, any Error>) throws -> State?
  ) -> Observable<Element> {
    let loopsOnTrampoline = scheduler is CurrentThreadScheduler
    return Observable(
      Signal { observer in
        scheduler.scheduleRecursive(initial) { state, recurse in
          guard !observer.isTerminated else { return }
          var state = state
          while true {
            do {
              guard let next = try step(state, observer), !observer.isTerminated else { return }
              guard loopsOnTrampoline, TrampolineScheduler.isQueueEmptyBehindRunningAction else {
                recurse(next)
                return
              }
              state = next
            } catch {
              observer.fail(error)
              return
            }
          }
        }
      })
  }

  /// A sequence whose every subscription runs `subscribe` with a new observer (RxSwift's `create`).
  ///
  /// `subscribe` runs synchronously on the subscribing thread; it sends events now or later from any
  /// thread and returns what to dispose when the subscription ends. That disposable is disposed exactly
  /// once: after the end was delivered, or when the subscriber disposes, whichever comes first.
  public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> any Disposable)
    -> Observable<Element>
  {
    let subscribe = rxClosure(subscribe)
    return Observable(Signal { observer in subscribe(AnyObserver(observer)) })
  }

  /// A sequence sending `element` and completing, on subscription.
  @inlinable public static func just(_ element: Element) -> Observable<Element> {
    Observable(.just(RxElement(element)))
  }

  /// A sequence sending `element` and completing, on `scheduler`.
  @inlinable public static func just(_ element: Element, scheduler: some ImmediateSchedulerType) -> Observable<Element>
  {
    from([element], scheduler: scheduler)
  }

  /// A sequence sending each of `elements` and completing, on subscription.
  @inlinable public static func of(_ elements: Element...) -> Observable<Element> { from(elements) }

  /// A sequence sending each of `elements` and completing, each on `scheduler` (one scheduled action
  /// per element, as RxSwift).
  @inlinable public static func of(_ elements: Element..., scheduler: some ImmediateSchedulerType) -> Observable<
    Element
  > {
    from(elements, scheduler: scheduler)
  }

  /// A sequence sending each element of `array` and completing, on subscription.
  @inlinable public static func from(_ array: [Element]) -> Observable<Element> {
    let array = RxElement(array)
    return Observable(
      Signal { observer in
        // One batch send: it stops once the subscription ends (a disposal, or a `take` downstream).
        guard observer.sendAll(array.value.lazy.map { .next(RxElement($0)) }) else { return nil }
        observer.finish()
        return nil
      })
  }

  /// A sequence sending each element of `sequence` (read once, now) and completing, on subscription.
  @inlinable public static func from<Source: Sequence>(_ sequence: Source) -> Observable<Element>
  where Source.Element == Element {
    from(Array(sequence))
  }

  /// A sequence sending each element of `sequence` (read once, now) and completing, each element in its
  /// own action on `scheduler`, as `from(_:scheduler:)` of an array does.
  @inlinable public static func from<Source: Sequence>(_ sequence: Source, scheduler: some ImmediateSchedulerType)
    -> Observable<Element> where Source.Element == Element
  {
    from(Array(sequence), scheduler: scheduler)
  }

  /// A sequence sending `element` if it is not `nil`, then completing, on `scheduler` (RxSwift's
  /// `from(optional:scheduler:)`).
  @inlinable public static func from(optional element: Element?, scheduler: some ImmediateSchedulerType)
    -> Observable<Element>
  {
    from(element.map { [$0] } ?? [], scheduler: scheduler)
  }

  /// A sequence sending each of `array` and completing, each element in its own action on
  /// `scheduler` (RxSwift schedules recursively, so other work interleaves between elements).
  ///
  /// Disposing the subscription stops the recursion: no element is sent after it.
  @inlinable public static func from(_ array: [Element], scheduler: some ImmediateSchedulerType) -> Observable<Element>
  {
    let array = RxElement(array)
    return recursive(on: scheduler, from: 0) { index, observer in
      guard index < array.value.count else {
        observer.finish()
        return nil
      }
      observer.send(array.value[index])
      return index + 1
    }
  }

  /// A sequence sending `element` if it is not `nil`, then completing.
  @inlinable public static func from(optional element: Element?) -> Observable<Element> {
    from(element.map { [$0] } ?? [])
  }

  /// A sequence that completes on subscription, sending nothing.
  @inlinable public static func empty() -> Observable<Element> { Observable(.empty()) }

  /// A sequence that never sends anything and never ends.
  @inlinable public static func never() -> Observable<Element> { Observable(.never()) }

  /// A sequence that fails with `error` on subscription.
  @inlinable public static func error(_ error: any Swift.Error) -> Observable<Element> { Observable(.fail(error)) }

  /// A sequence whose every subscription subscribes to a new sequence made by `factory` (RxSwift's
  /// `deferred`). `factory` runs on the subscribing thread; an error it throws fails the subscription.
  @inlinable public static func deferred(_ factory: @escaping () throws -> Observable<Element>)
    -> Observable<Element>
  {
    let factory = rxClosure(factory)
    return Observable(
      Signal { observer in
        do {
          return try factory().signal.subscribe(linkedTo: observer) { observer.send($0) }
        } catch {
          observer.fail(error)
          return nil
        }
      })
  }

  /// A sequence sending `element` forever, each time in its own action on `scheduler` (RxSwift's
  /// `repeatElement`). Disposing the subscription stops it.
  @inlinable public static func repeatElement(
    _ element: Element, scheduler: some ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> {
    let element = RxElement(element)
    return recursive(on: scheduler, from: ()) { _, observer in
      observer.send(element)
      return ()
    }
  }

  /// A sequence that starts at `initialState`, sends each state while `condition` holds, and moves on
  /// with `iterate` (RxSwift's `generate`), each step in its own action on `scheduler`.
  ///
  /// `condition` and `iterate` run on the scheduler; an error either throws fails the sequence.
  @inlinable public static func generate(
    initialState: Element, condition: @escaping (Element) throws -> Bool,
    scheduler: some ImmediateSchedulerType = CurrentThreadScheduler.instance,
    iterate: @escaping (Element) throws -> Element
  ) -> Observable<Element> {
    let condition = rxClosure(condition)
    let iterate = rxClosure(iterate)
    return recursive(on: scheduler, from: (RxElement(initialState), true)) { step, observer in
      let state = step.1 ? step.0.value : try iterate(step.0.value)
      guard try condition(state) else {
        observer.finish()
        return nil
      }
      observer.send(state)
      return (RxElement(state), false)
    }
  }
}

extension ObservableType where Element: RxAbstractInteger {
  /// A sequence sending `count` integers from `start`, then completing, each in its own action on
  /// `scheduler` (RxSwift's `range`).
  /// - Precondition: `count >= 0`.
  @inlinable public static func range(
    start: Element, count: Element, scheduler: some ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> {
    checkArgument(count >= 0, "Observable.range: count must not be negative (got \(count))")
    return recursive(on: scheduler, from: Element.zero) { index, observer in
      guard index < count else {
        observer.finish()
        return nil
      }
      observer.send(start + index)
      return index + 1
    }
  }
}

/// The integer types `range`, `timer` and `interval` count in (RxSwift's `RxAbstractInteger`).
public protocol RxAbstractInteger: FixedWidthInteger & Sendable {}

extension Int: RxAbstractInteger {}
extension Int8: RxAbstractInteger {}
extension Int16: RxAbstractInteger {}
extension Int32: RxAbstractInteger {}
extension Int64: RxAbstractInteger {}
extension UInt: RxAbstractInteger {}
extension UInt8: RxAbstractInteger {}
extension UInt16: RxAbstractInteger {}
extension UInt32: RxAbstractInteger {}
extension UInt64: RxAbstractInteger {}
