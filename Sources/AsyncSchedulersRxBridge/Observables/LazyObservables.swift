/// The observables of a sequence that an operator reads lazily, one at a time, each subscription from
/// the start (`concat` of a sequence, `catch(sequence:)`): as RxSwift reads them, so a lazy or endless
/// sequence works.
final class LazyObservables<Element>: @unchecked Sendable {
  // Why @unchecked Sendable: the sequence is only read, by `makeIterator` (each subscription makes its
  // own iterator).
  private let iterate: () -> AnyIterator<Observable<Element>>

  init<Sources: Sequence>(_ sequence: Sources) where Sources.Element == Observable<Element> {
    iterate = { AnyIterator(sequence.makeIterator()) }
  }

  /// A new iterator over the sequence, for one subscription.
  func makeIterator() -> Iterator { Iterator(iterate()) }

  /// One subscription's iterator over the sequence.
  final class Iterator: @unchecked Sendable {
    // Why @unchecked Sendable: advanced only by its subscription, one step each time the previous
    // observable has ended, so never by two threads at once.
    private let iterator: AnyIterator<Observable<Element>>
    init(_ iterator: AnyIterator<Observable<Element>>) { self.iterator = iterator }

    /// The next observable, if any.
    func next() -> Observable<Element>? { iterator.next() }
  }
}
