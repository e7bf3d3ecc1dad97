import AsyncSchedulers
import AsyncSignals
import Synchronization

extension ObservableType {
  /// On an error, continues with the sequence `handler` makes from it (RxSwift's `catch`); an error
  /// `handler` throws fails the sequence.
  @inlinable public func `catch`(_ handler: @escaping (any Swift.Error) throws -> Observable<Element>)
    -> Observable<Element>
  {
    let handler = rxClosure(handler)
    return Observable(
      signal.catch { error in
        do { return try handler(error).signal } catch { return .fail(error) }
      })
  }

  /// Subscribes to the observables of `sequence` one after another, moving to the next one on an error
  /// (RxSwift's `catch(sequence:)`): ends when one completes, or with the last error when all failed
  /// (completes at once for no observables). The sequence is read lazily, one observable per error, on
  /// the thread that sent the error.
  public static func `catch`<Sources: Sequence>(sequence: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    let sources = LazyObservables(sequence)
    return .deferred { catchRemaining(sources.makeIterator(), lastError: nil) }
  }

  /// The observables `iterator` has left, each taking over on the previous one's error.
  private static func catchRemaining(_ iterator: LazyObservables<Element>.Iterator, lastError: (any Error)?)
    -> Observable<Element>
  {
    guard let next = iterator.next() else { return lastError.map { .error($0) } ?? .empty() }
    return next.catch { error in catchRemaining(iterator, lastError: error) }
  }

  /// On an error, sends `element` and completes (RxSwift's `catchAndReturn`).
  @inlinable public func catchAndReturn(_ element: Element) -> Observable<Element> {
    let element = RxElement(element)
    return Observable(signal.catch { _ in .just(element) })
  }

  /// Resubscribes after every error, forever (RxSwift's `retry()`).
  @inlinable public func retry() -> Observable<Element> { Observable(signal.retry()) }

  /// Subscribes at most `maxAttemptCount` times in all: after that many errors the last one is sent
  /// (RxSwift's `retry(_:)`).
  /// - Precondition: `maxAttemptCount >= 1`.
  @inlinable public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
    checkArgument(maxAttemptCount >= 1, "Observable.retry: maxAttemptCount must be at least 1 (got \(maxAttemptCount))")
    return Observable(signal.retry(maxAttemptCount - 1))
  }

  /// Resubscribes when the sequence `notificationHandler` makes from the errors sends a value; ends
  /// with its error or completion (RxSwift's `retry(when:)`).
  ///
  /// `notificationHandler` runs once per subscription, on the subscribing thread, with a sequence of
  /// this subscription's errors.
  @inlinable public func retry<Trigger: ObservableConvertibleType>(
    when notificationHandler: @escaping (Observable<any Swift.Error>) -> Trigger
  ) -> Observable<Element> {
    let notificationHandler = rxClosure(notificationHandler)
    let upstream = signal
    return Observable(
      Signal { observer in
        let errors = ReplaySignalSubject<RxElement<any Swift.Error>, any Error>(capacity: 0)
        let attempt = SerialDisposable()
        // As RxSwift's: the trigger counts only while an error waits for it; a trigger that ended before
        // an error ends the sequence when that error comes (a source that completes first completes it).
        let trigger = Mutex<(waiting: Bool, ended: SignalEvent<RxElement<Element>, any Error>?)>((false, nil))
        let subscribeUpstream: @Sendable () -> Void = {
          attempt.disposable = upstream.subscribe { event in
            switch event {
            case .next(let value): observer.send(value)
            case .failed(let error):
              let ended = trigger.withCriticalRegion { state -> SignalEvent<RxElement<Element>, any Error>? in
                if state.ended == nil { state.waiting = true }
                return state.ended
              }
              if let ended { observer.send(ended) } else { errors.send(RxElement(error)) }
            case .finished: observer.finish()
            }
          }
        }
        let triggers = notificationHandler(Observable(errors.signal)).asObservable().signal.subscribe { event in
          let end: SignalEvent<RxElement<Element>, any Error>
          switch event {
          case .next:
            let retry = trigger.withCriticalRegion { state -> Bool in
              defer { state.waiting = false }
              return state.waiting
            }
            if retry { subscribeUpstream() }
            return
          case .failed(let error): end = .failed(error)
          case .finished: end = .finished
          }
          let now = trigger.withCriticalRegion { state -> Bool in
            state.ended = end
            return state.waiting
          }
          if now { observer.send(end) }
        }
        subscribeUpstream()
        return Disposables.create(triggers, attempt)
      })
  }
}
