import AsyncSchedulersRxBridge

/// A virtual time of RxTest's `TestScheduler`, in ticks (RxTest's `TestTime`).
public typealias TestTime = Int

/// A value recorded at a virtual time (RxTest's `Recorded`): an event an observer received, or an event
/// a test observable sends.
public struct Recorded<Value> {
  /// When, in ticks.
  public let time: TestTime
  /// What.
  public let value: Value

  /// A value recorded at `time`.
  public init(time: TestTime, value: Value) {
    self.time = time
    self.value = value
  }
}

extension Recorded: Sendable where Value: Sendable {}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded: CustomDebugStringConvertible {
  /// `value @ time`, as RxTest prints it.
  public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded {
  /// A `next` event at `time`.
  public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
  where Value == Event<Element> {
    Recorded(time: time, value: .next(element))
  }

  /// A `completed` event at `time`.
  public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self)
    -> Recorded<Event<Element>> where Value == Event<Element>
  {
    Recorded(time: time, value: .completed)
  }

  /// An `error` event at `time`.
  public static func error<Element>(_ time: TestTime, _ error: any Swift.Error, _ type: Element.Type = Element.self)
    -> Recorded<Event<Element>> where Value == Event<Element>
  {
    Recorded(time: time, value: .error(error))
  }

  /// The recorded events, as listed (RxTest's `Recorded.events(…)`).
  public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...) -> [Recorded<Event<Element>>]
  where Value == Event<Element> {
    recordedEvents
  }

  /// The recorded events of `recordedEvents`.
  public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>]) -> [Recorded<Event<Element>>]
  where Value == Event<Element> {
    recordedEvents
  }
}
