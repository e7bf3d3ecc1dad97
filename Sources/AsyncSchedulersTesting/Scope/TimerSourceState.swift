/// One `DispatchSource` timer of a capturing scope's code on the scope's virtual clock: the pure half
/// of ``ScopeTimerSource``. It follows Dispatch's rules for a timer source: created inactive; delivers
/// only while active, not suspended and not cancelled; a fire while it cannot deliver is kept (fires
/// coalesce, as Dispatch's timer data does) and delivered once when it can; a new `schedule` replaces
/// the previous one; `cancel` ends every delivery to come.
///
/// `Handler` is the event handler's type (a block in the storage class; anything in the model test).
/// Each arming has a generation: a virtual timer of an older arming finds its generation stale and
/// does nothing.
package struct TimerSourceState<Handler> {
  /// The current arming: when its next fire is due and how it repeats.
  package struct Arming: Equatable {
    /// The generation of this arming (a virtual timer carries it).
    package var generation: UInt64
    /// The virtual deadline of the next fire, in nanoseconds of the scheduler's clock.
    package var deadline: Int64
    /// The repeat interval in nanoseconds (`nil`: a one-shot timer).
    package var interval: Int64?
  }

  /// What the storage must do after an event.
  package enum Action {
    /// Nothing.
    case none
    /// Add a virtual timer at `deadline` for generation `generation` (and drop the previous one).
    case addTimer(deadline: Int64, generation: UInt64)
    /// Drop the pending virtual timer.
    case dropTimer
    /// Run the event handler once on the source's queue.
    case deliver(Handler)
    /// Run the event handler once, then add the next virtual timer.
    case deliverAndAddTimer(Handler, deadline: Int64, generation: UInt64)
  }

  /// The event handler (`nil`: none set yet, or set to `nil`).
  package private(set) var handler: Handler?
  /// Whether the source was activated (`resume()` of an inactive source, or `activate()`).
  package private(set) var isActive = false
  /// How many `suspend()` calls wait for their `resume()`.
  package private(set) var suspensions = 0
  /// Whether the source was cancelled: nothing is delivered any more.
  package private(set) var isCancelled = false
  /// A fire that came while the source could not deliver, kept for when it can.
  package private(set) var hasPendingFire = false
  /// The current arming (`nil`: not armed on the virtual clock).
  package private(set) var arming: Arming?
  /// The last generation handed out.
  private var lastGeneration: UInt64 = 0

  package init() {}

  /// Whether a fire is delivered now.
  package var canDeliver: Bool { isActive && suspensions == 0 && !isCancelled }

  /// The event handler was set (or cleared).
  package mutating func setHandler(_ handler: Handler?) { self.handler = handler }

  /// `schedule(deadline:repeating:)` from the scope's code: arms the source at `deadline` (virtual
  /// nanoseconds), repeating every `interval` nanoseconds (`nil`: once). Replaces any previous arming
  /// and forgets a kept fire, as Dispatch does.
  package mutating func arm(deadline: Int64, interval: Int64?) -> Action {
    guard !isCancelled else { return .none }
    lastGeneration &+= 1
    arming = Arming(generation: lastGeneration, deadline: deadline, interval: interval.map { max($0, 1) })
    hasPendingFire = false
    return .addTimer(deadline: deadline, generation: lastGeneration)
  }

  /// The source was scheduled on real time (from code outside the scope, or on the wall clock): its
  /// virtual arming ends.
  package mutating func disarm() -> Action {
    hasPendingFire = false  // A new schedule forgets a kept fire, as in `arm`.
    guard arming != nil else { return .none }
    arming = nil
    return .dropTimer
  }

  /// The virtual timer of generation `generation` fired.
  package mutating func fired(generation: UInt64) -> Action {
    guard var current = arming, current.generation == generation, !isCancelled else { return .none }
    var next: (deadline: Int64, generation: UInt64)?
    if let interval = current.interval {
      let sum = current.deadline.addingReportingOverflow(interval)
      if sum.overflow {
        arming = nil
      } else {
        current.deadline = sum.partialValue
        arming = current
        next = (sum.partialValue, generation)
      }
    } else {
      arming = nil
    }
    let handler = deliverOrKeep()
    switch (handler, next) {
    case (let handler?, let next?):
      return .deliverAndAddTimer(handler, deadline: next.deadline, generation: next.generation)
    case (let handler?, nil): return .deliver(handler)
    case (nil, let next?): return .addTimer(deadline: next.deadline, generation: next.generation)
    case (nil, nil): return .none
    }
  }

  /// `suspend()`.
  package mutating func suspend() { suspensions += 1 }

  /// `resume()`: activates an inactive source, or ends one suspension; a kept fire is delivered once
  /// the source can deliver.
  package mutating func resume() -> Action {
    if !isActive {
      isActive = true
    } else if suspensions > 0 {
      suspensions -= 1
    }
    return deliverKept()
  }

  /// `activate()`.
  package mutating func activate() -> Action {
    isActive = true
    return deliverKept()
  }

  /// `cancel()`: nothing more is delivered; the pending virtual timer is dropped.
  package mutating func cancel() -> Action {
    guard !isCancelled else { return .none }
    isCancelled = true
    hasPendingFire = false
    let armed = arming != nil
    arming = nil
    return armed ? .dropTimer : .none
  }

  private mutating func deliverOrKeep() -> Handler? {
    guard let handler else { return nil }  // Dispatch: a fire with no handler runs nothing.
    guard canDeliver else {
      hasPendingFire = true
      return nil
    }
    return handler
  }

  private mutating func deliverKept() -> Action {
    guard hasPendingFire, canDeliver, let handler else { return .none }
    hasPendingFire = false
    return .deliver(handler)
  }
}
