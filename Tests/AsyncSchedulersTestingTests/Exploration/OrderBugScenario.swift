import AppPatterns
import AsyncSchedulersTesting
import Testing

/// A run of an order bug's scenario saw the bug.
struct OrderBugSeen: Error, CustomStringConvertible {
  let description: String
}

/// Throws ``OrderBugSeen`` with `message` unless `condition` holds.
func expectOrder(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  if !condition { throw OrderBugSeen(description: message()) }
}

/// The six order bugs of the app patterns, each as a test body would drive it on virtual time: the
/// buggy version, or its fix. A run throws ``OrderBugSeen`` when the bug shows.
enum OrderBugScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// A cache checked, then filled across an `await`, loads twice.
  case cacheLoadsTwice
  /// A stale search answer arriving last overwrites the fresh one.
  case staleAnswerWins
  /// A double tap charges twice.
  case doubleTapChargesTwice
  /// A read-`await`-write on an actor loses a deposit.
  case depositLost
  /// A response and a timeout at the same instant both complete the request.
  case timeoutAndResponseBothComplete
  /// An `AsyncStream` consumer that subscribes in its own task misses the first events.
  case streamMissesFirstEvent

  var testDescription: String { rawValue }

  /// Runs the scenario's buggy version or its fix in the current scope.
  func run(fixed: Bool, on scheduler: TestScheduler) async throws {
    switch self {
    case .cacheLoadsTwice: try await Self.twoViewsLoadOneThumbnail(fixed: fixed)
    case .staleAnswerWins: try await Self.typingTwoQueries(fixed: fixed)
    case .doubleTapChargesTwice: try await Self.doubleTap(fixed: fixed)
    case .depositLost: try await Self.twoDeposits(fixed: fixed)
    case .timeoutAndResponseBothComplete: try await Self.responseAtTheTimeout(fixed: fixed)
    case .streamMissesFirstEvent: try await Self.consumerAndProducer(fixed: fixed, scheduler: scheduler)
    }
  }

  /// Two views appear at 0.5 s and ask for the same thumbnail.
  private static func twoViewsLoadOneThumbnail(fixed: Bool) async throws {
    let store = ThumbnailStore()
    let cache = ThumbnailCache(store: store)
    let fixedCache = DeduplicatingThumbnailCache(store: store)
    let views = (0..<2).map { _ in
      Task {
        try await Task.sleep(for: .milliseconds(500))
        _ = fixed ? await fixedCache.thumbnail("avatar") : await cache.thumbnail("avatar")
      }
    }
    for view in views { try await view.value }
    let loads = await store.loads
    try expectOrder(loads == 1, "the thumbnail was loaded \(loads) times")
  }

  /// Two keystrokes at the same instant; the backend answers each after 200 ms.
  @MainActor
  private static func typingTwoQueries(fixed: Bool) async throws {
    let backend = SearchBackend(latency: .milliseconds(200))
    let results: () -> [String]
    if fixed {
      let model = LatestSearchResultsModel(backend: backend)
      model.queryChanged("s")
      model.queryChanged("sw")
      results = { model.results }
    } else {
      let model = SearchResultsModel(backend: backend)
      model.queryChanged("s")
      model.queryChanged("sw")
      results = { model.results }
    }
    try await Task.sleep(for: .seconds(1))
    try expectOrder(results() == ["sw1", "sw2"], "the results show \(results())")
  }

  /// Two taps on the pay button land in the same frame, at 300 ms.
  @MainActor
  private static func doubleTap(fixed: Bool) async throws {
    let backend = PaymentBackend()
    let model = PaymentButtonModel(validator: PaymentValidator(), backend: backend)
    let fixedModel = SingleChargePaymentButtonModel(validator: PaymentValidator(), backend: backend)
    let taps = (0..<2).map { _ in
      Task {
        try await Task.sleep(for: .milliseconds(300))
        if fixed { await fixedModel.tapped(amount: 5) } else { await model.tapped(amount: 5) }
      }
    }
    for tap in taps { try await tap.value }
    let charges = await backend.charges
    try expectOrder(charges == 1, "the card was charged \(charges) times")
  }

  /// Two payments arrive at 1 s.
  private static func twoDeposits(fixed: Bool) async throws {
    let wallet = Wallet(log: AuditLog())
    let fixedWallet = AtomicWallet(log: AuditLog())
    let payments = (0..<2).map { _ in
      Task {
        try await Task.sleep(for: .seconds(1))
        if fixed { await fixedWallet.deposit(10) } else { await wallet.deposit(10) }
      }
    }
    for payment in payments { try await payment.value }
    let balance = fixed ? await fixedWallet.balance : await wallet.balance
    try expectOrder(balance == 20, "the balance is \(balance) after two deposits of 10")
  }

  /// The response arrives exactly at the timeout, 1 s.
  @MainActor
  private static func responseAtTheTimeout(fixed: Bool) async throws {
    let completions: () -> [String]
    if fixed {
      let request = ClaimingTimedRequest(log: RequestLog())
      request.start(latency: .seconds(1), timeout: .seconds(1))
      completions = { request.completions }
    } else {
      let request = TimedRequest(log: RequestLog())
      request.start(latency: .seconds(1), timeout: .seconds(1))
      completions = { request.completions }
    }
    try await Task.sleep(for: .seconds(2))
    try expectOrder(completions().count == 1, "the request completed \(completions().count) times: \(completions())")
  }

  /// A consumer and a producer of three events start together.
  private static func consumerAndProducer(fixed: Bool, scheduler: TestScheduler) async throws {
    let bus = EventBus()
    let collector = EventCollector()
    let consumer =
      fixed
      ? await subscribeThenStartProducer(bus: bus, collector: collector, events: [1, 2, 3])
      : startConsumerThenProducer(bus: bus, collector: collector, events: [1, 2, 3])
    await scheduler.settle()
    consumer.cancel()
    await consumer.value
    let events = await collector.events
    try expectOrder(events == [1, 2, 3], "the consumer received \(events)")
  }
}
