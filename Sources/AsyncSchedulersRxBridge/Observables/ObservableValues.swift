import AsyncSignals

/// An observable sequence's values as an `AsyncSequence` (what RxSwift 6.5's `values` gives, there an
/// `AsyncThrowingStream`): each iterator subscribes on its first `next()`; values wait in an unbounded
/// buffer while the loop body runs; an error is thrown from the loop; leaving the loop disposes the
/// subscription; cancelling the iterating task disposes it and throws `CancellationError`, as
/// RxSwift's does (the native `SignalValues` ends quietly instead).
public struct ObservableValues<Element>: AsyncSequence, Sendable {
  @usableFromInline let values: SignalValues<RxElement<Element>, any Error>

  @inlinable init(values: SignalValues<RxElement<Element>, any Error>) { self.values = values }

  /// Creates an iterator; it subscribes on its first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(base: values.makeAsyncIterator()) }

  /// Iterates one subscription. Not shared between tasks.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: SignalValues<RxElement<Element>, any Error>.Iterator

    @inlinable init(base: SignalValues<RxElement<Element>, any Error>.Iterator) { self.base = base }

    /// The next value; `nil` at the end; throws the sequence's error, or `CancellationError` once the
    /// iterating task is cancelled before the end.
    @inlinable public mutating func next() async throws -> Element? {
      guard let value = try await base.next() else {
        if Task.isCancelled { throw CancellationError() }
        return nil
      }
      return value.value
    }
  }
}

@available(*, unavailable)
extension ObservableValues.Iterator: Sendable {}
