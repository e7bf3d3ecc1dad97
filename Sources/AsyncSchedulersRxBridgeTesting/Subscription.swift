import AsyncSchedulersRxBridge

/// When a test observable was subscribed and unsubscribed, in ticks (RxTest's `Subscription`);
/// `unsubscribe` is `Int.max` while the subscription lives.
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
  /// When the subscription started.
  public let subscribe: TestTime
  /// When it was disposed, or `Int.max`.
  public let unsubscribe: TestTime

  /// A subscription that started at `subscribe` and has not ended.
  public init(_ subscribe: TestTime) { self.init(subscribe, Int.max) }

  /// A subscription from `subscribe` to `unsubscribe`.
  public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
    self.subscribe = subscribe
    self.unsubscribe = unsubscribe
  }

  /// `(subscribe : unsubscribe)`, with `Infinity` for a live one, as RxTest prints it.
  public var debugDescription: String {
    "(\(subscribe) : \(unsubscribe == Int.max ? "Infinity" : String(unsubscribe)))"
  }
}
