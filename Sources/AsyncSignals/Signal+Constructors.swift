import AsyncSchedulers

extension Signal {
  /// A signal that sends `value` and finishes, on the subscribing thread (`+[RACSignal return:]`).
  @inlinable public static func just(_ value: Element) -> Signal {
    Signal(just: value)
  }

  /// A signal that finishes at once, sending nothing (`+[RACSignal empty]`).
  @inlinable public static func empty() -> Signal {
    Signal { observer in
      observer.finish()
      return nil
    }
  }

  /// A signal that never sends anything and never ends (`+[RACSignal never]`).
  @inlinable public static func never() -> Signal { Signal { _ in nil } }

  /// A signal that fails with `error` at once (`+[RACSignal error:]`).
  @inlinable public static func fail(_ error: Failure) -> Signal {
    Signal { observer in
      observer.fail(error)
      return nil
    }
  }

  /// A signal that sends the elements of `sequence` on `scheduler`, one element per scheduled job, then
  /// finishes (`-[RACSequence signalWithScheduler:]`, Rx `Observable.from(_:scheduler:)`).
  ///
  /// A long sequence never holds the scheduler: other work runs between two elements. Disposing the
  /// subscription stops it before the next element. The sequence is iterated on the scheduler, each
  /// subscription anew.
  public init<S: Sequence & Sendable>(_ sequence: S, on scheduler: some Scheduler) where S.Element == Element {
    self.init { observer in
      // One job per element; an inline or immediate scheduler iterates instead of recursing (see
      // `SequenceEmissionStateMachine`).
      let emission = SequenceEmission(sequence.makeIterator(), observer: observer, scheduler: scheduler)
      emission.scheduleNext()
      return emission
    }
  }

  /// A signal that iterates `sequence` in a task that prefers `scheduler` (never on the subscriber's
  /// actor), sending its elements, then its end or its failure.
  ///
  /// Each subscription starts its own iteration; disposing the subscription cancels the task.
  public init<S: AsyncSequence & Sendable>(_ sequence: S, on scheduler: some Scheduler)
  where S.Element == Element, S.Failure == Failure {
    self.init { observer in
      Task(executorPreference: scheduler) {
        var iterator = sequence.makeAsyncIterator()
        do throws(Failure) {
          while let element = try await iterator.next(isolation: nil) {
            observer.send(element)
            if observer.isTerminated { return }
          }
          observer.finish()
        } catch {
          observer.fail(error)
        }
      }
    }
  }
}
