import AsyncSchedulers
import AsyncSignals

extension ObservableType {
  /// Sends the values collected over each `timeSpan`, or as soon as `count` are collected (the window
  /// then starts again), as arrays; empty windows send empty arrays, and completion sends the last
  /// window first (RxSwift's `buffer`). A failure drops the open window.
  ///
  /// The window timers run on `scheduler`'s core (on a scheduler with none, such as
  /// `HistoricalScheduler`, through its own scheduling); arrays are sent from the thread that closed the
  /// window (the timer's or the upstream's), in the order the windows closed.
  /// - Precondition: `count > 0` and `timeSpan` is not `.never`.
  public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: some SchedulerType) -> Observable<[Element]> {
    let api = "Observable.buffer"
    checkArgument(count > 0, "\(api): count must be positive (got \(count))")
    let span = timeSpan.duration(for: api, "timeSpan")
    let core = coreScheduler(of: scheduler, for: api)
    let upstream = asObservable().signal
    return Observable<[Element]>(
      Signal { observer in
        let windows = TimedWindows<RxElement<Element>, [Element]>(
          collecting: true, core: core, span: span, count: count, observer: observer
        ) { delivery in
          guard case .batch(let values) = delivery else { return nil }
          return values.map(\.value)
        }
        windows.start()
        let source = upstream.subscribe(linkedTo: observer) { windows.receive($0) }
        return Disposables.create(source, windows)
      })
  }

  /// Splits the sequence into windows, each an `Observable` closed after `timeSpan` or after `count`
  /// values, whichever comes first; the next window opens as one closes (RxSwift's `window`).
  ///
  /// The first window is sent at subscription. Windows are hot: a value reaches the subscribers a window
  /// has when the value arrives. Completion completes the open window, then the sequence of windows; a
  /// failure fails both. Disposing the subscription keeps the upstream subscribed while a window still
  /// has subscribers (RxSwift's reference counting); the timers stop. The window timers run on
  /// `scheduler`'s core (on a scheduler with none, through its own scheduling); windows and values are
  /// sent, in the order decided, from the thread that decided them.
  /// - Precondition: `count > 0` and `timeSpan` is not `.never`.
  public func window(timeSpan: RxTimeInterval, count: Int, scheduler: some SchedulerType)
    -> Observable<Observable<Element>>
  {
    let api = "Observable.window"
    checkArgument(count > 0, "\(api): count must be positive (got \(count))")
    let span = timeSpan.duration(for: api, "timeSpan")
    let core = coreScheduler(of: scheduler, for: api)
    let upstream = asObservable().signal
    return Observable<Observable<Element>>(
      Signal { observer in
        let source = SingleAssignmentDisposable()
        let windows = SingleAssignmentDisposable()
        let references = RefCountDisposable(disposable: Disposables.create(source, windows))
        let machine = TimedWindows<RxElement<Element>, Observable<Element>>(
          collecting: false, core: core, span: span, count: count, observer: observer
        ) { delivery in
          guard case .open(let subject) = delivery else { return nil }
          return Observable<Element>.create { window in
            let reference = references.retain()
            let values = Observable<Element>(subject.asObservable().signal.map(\.value))
            return Disposables.create(values.subscribe(window), reference)
          }
        }
        windows.setDisposable(machine)
        machine.start()
        source.setDisposable(upstream.subscribe { machine.receive($0) })
        return references
      })
  }
}
