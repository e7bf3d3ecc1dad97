import AsyncSchedulers
import AsyncSignals

/// A signal's `values` is a plain `AsyncSequence`: it composes with the standard library's methods and
/// with any algorithm written against the protocols, as swift-async-algorithms' are (the examples may
/// not depend on that package, so `AsyncPairs` stands in for its `zip`).
enum AsyncSequenceDemo {
  static func run() async throws {
    // snippet: signal-async-sequence
    let numbers = Signal<Int, Never> { observer in
      for value in 1...5 { observer.send(value) }
      observer.finish()
      return nil
    }
    let letters = Signal<String, Never> { observer in
      for letter in ["a", "b", "c"] { observer.send(letter) }
      observer.finish()
      return nil
    }
    // The standard library's AsyncSequence methods, on a signal (it is an AsyncSequence) …
    let evens = numbers.filter { $0 % 2 == 0 }.map { $0 * 10 }
    for await value in evens { print("  even \(value)") }
    // … and on its values with a chosen buffer, passed to an algorithm written against the
    // AsyncSequence protocols only, like swift-async-algorithms' zip.
    let pairs = AsyncPairs(numbers.values(buffering: .bufferingOldest(8)), letters.values(buffering: .unbounded))
    for try await (number, letter) in pairs {
      print("  pair \(number)\(letter)")
    }
    // end-snippet
  }
}

/// Pairs the elements of two asynchronous sequences by index, pulling one from each in turn, and ends
/// with the shorter one: the shape of swift-async-algorithms' `zip`, against the protocols only.
struct AsyncPairs<First: AsyncSequence, Second: AsyncSequence>: AsyncSequence {
  typealias Element = (First.Element, Second.Element)

  let first: First
  let second: Second

  init(_ first: First, _ second: Second) {
    self.first = first
    self.second = second
  }

  struct AsyncIterator: AsyncIteratorProtocol {
    var first: First.AsyncIterator
    var second: Second.AsyncIterator

    mutating func next() async throws -> Element? {
      guard let a = try await first.next(), let b = try await second.next() else { return nil }
      return (a, b)
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(first: first.makeAsyncIterator(), second: second.makeAsyncIterator())
  }
}
