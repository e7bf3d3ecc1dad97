import AsyncSchedulersRxBridge
@_spi(TestingBridges) import AsyncSchedulersTesting

// RxTest's assertions over recorded events. A mismatch fails the running test (XCTest or Swift
// Testing) at the caller's line, with every differing position in the message. Errors compare as
// `Event`'s `==` compares them: by their reflected description.

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that two lists of events are equal (RxTest's `XCTAssertEqual` over events).
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [Event<Element>], _ rhs: [Event<Element>], file: StaticString = #filePath, line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, by: { $0 == $1 }, file: file, line: line)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that two lists of `Single` events are equal (RxTest's `XCTAssertEqual` over `SingleEvent`s).
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>], file: StaticString = #filePath,
  line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, by: sameSingleEvent, file: file, line: line)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that two lists of `Maybe` events are equal (RxTest's `XCTAssertEqual` over `MaybeEvent`s).
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>], file: StaticString = #filePath,
  line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, by: sameMaybeEvent, file: file, line: line)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that two lists of `Completable` events are equal (RxTest's `XCTAssertEqual` over
/// `CompletableEvent`s).
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertEqual(
  _ lhs: [CompletableEvent], _ rhs: [CompletableEvent], file: StaticString = #filePath, line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, by: sameCompletableEvent, file: file, line: line)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that two lists of recorded events are equal, times and events (RxTest's `XCTAssertEqual`
/// over `Recorded` events, what `TestableObserver.events` holds).
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>], file: StaticString = #filePath,
  line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, by: { $0 == $1 }, file: file, line: line)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that two lists of recorded events of optional values are equal (RxTest's overload for
/// optional elements).
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertEqual<Element: Equatable>(
  _ lhs: [Recorded<Event<Element?>>], _ rhs: [Recorded<Event<Element?>>], file: StaticString = #filePath,
  line: UInt = #line
) {
  assertEventsEqual(lhs, rhs, by: { $0 == $1 }, file: file, line: line)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that recorded events are exactly `elements`, as `next` events, whatever their times
/// (RxTest's `XCTAssertRecordedElements`); a recorded `error` or `completed` fails the assertion.
///
/// Runs on the calling thread; does not block. On a mismatch the running test fails at `file`:`line`.
public func XCTAssertRecordedElements<Element: Equatable>(
  _ stream: [Recorded<Event<Element>>], _ elements: [Element], file: StaticString = #filePath,
  line: UInt = #line
) {
  if let stop = stream.first(where: { $0.value.isStopEvent }) {
    reportTestFailure(
      "XCTAssertRecordedElements failed: a stop event was recorded: \(String(reflecting: stop))", file: file,
      line: line)
    return
  }
  assertEventsEqual(stream.compactMap(\.value.element), elements, by: { $0 == $1 }, file: file, line: line)
}

/// Fails the running test, naming every position where `lhs` and `rhs` differ, unless they are equal.
private func assertEventsEqual<Value>(
  _ lhs: [Value], _ rhs: [Value], by equal: (Value, Value) -> Bool, file: StaticString, line: UInt
) {
  var differences: [String] = []
  for index in 0..<max(lhs.count, rhs.count) {
    let left = index < lhs.count ? lhs[index] : nil
    let right = index < rhs.count ? rhs[index] : nil
    if let left, let right, equal(left, right) { continue }
    differences.append(
      "  [\(index)] \(left.map { String(describing: $0) } ?? "(none)")"
        + " ≠ \(right.map { String(describing: $0) } ?? "(none)")")
  }
  guard !differences.isEmpty else { return }
  reportTestFailure(
    "XCTAssertEqual failed: the events differ (\(lhs.count) against \(rhs.count)):\n"
      + differences.joined(separator: "\n"),
    file: file, line: line)
}

private func sameError(_ lhs: any Swift.Error, _ rhs: any Swift.Error) -> Bool {
  String(reflecting: lhs) == String(reflecting: rhs)
}

private func sameSingleEvent<Element: Equatable>(_ lhs: SingleEvent<Element>, _ rhs: SingleEvent<Element>)
  -> Bool
{
  switch (lhs, rhs) {
  case (.success(let a), .success(let b)): a == b
  case (.failure(let a), .failure(let b)): sameError(a, b)
  default: false
  }
}

private func sameMaybeEvent<Element: Equatable>(_ lhs: MaybeEvent<Element>, _ rhs: MaybeEvent<Element>) -> Bool {
  switch (lhs, rhs) {
  case (.success(let a), .success(let b)): a == b
  case (.error(let a), .error(let b)): sameError(a, b)
  case (.completed, .completed): true
  default: false
  }
}

private func sameCompletableEvent(_ lhs: CompletableEvent, _ rhs: CompletableEvent) -> Bool {
  switch (lhs, rhs) {
  case (.error(let a), .error(let b)): sameError(a, b)
  case (.completed, .completed): true
  default: false
  }
}
