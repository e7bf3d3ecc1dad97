/// ReactiveObjC's `RACTuple`: an ordered, immutable list of values, `nil` allowed, as
/// `combineLatest(with:)` and `zip(with:)` send them.
///
/// Read it as RAC code did, untyped (`tuple.first as? String`), by index, or by iterating it. Reading
/// past the end gives `nil`, as in ReactiveObjC.
public final class RACTuple: Sendable, Sequence, CustomStringConvertible {
  private let objects: [(any Sendable)?]

  /// A tuple of `objects`, in order (`+tupleWithObjectsFromArray:`).
  public init(objectsFrom objects: [(any Sendable)?]) { self.objects = objects }

  /// A tuple of `objects`, in order (`+tupleWithObjectsFromArray:`).
  public class func tuple(withObjectsFrom objects: [(any Sendable)?]) -> RACTuple { RACTuple(objectsFrom: objects) }

  /// How many values it holds, `nil`s included.
  public var count: Int { objects.count }

  /// The value at `index`, or `nil` past the end (`-objectAtIndex:`).
  public func object(at index: Int) -> (any Sendable)? { objects.indices.contains(index) ? objects[index] : nil }

  /// The value at `index`, or `nil` past the end.
  public subscript(index: Int) -> (any Sendable)? { object(at: index) }

  /// The first value.
  public var first: (any Sendable)? { object(at: 0) }
  /// The second value.
  public var second: (any Sendable)? { object(at: 1) }
  /// The third value.
  public var third: (any Sendable)? { object(at: 2) }
  /// The fourth value.
  public var fourth: (any Sendable)? { object(at: 3) }
  /// The fifth value.
  public var fifth: (any Sendable)? { object(at: 4) }
  /// The last value.
  public var last: (any Sendable)? { objects.last ?? nil }

  /// Every value, in order (`-allObjects`).
  public func allObjects() -> [(any Sendable)?] { objects }

  /// A tuple with `object` appended (`-tupleByAddingObject:`).
  public func tuple(byAdding object: (any Sendable)?) -> RACTuple { RACTuple(objectsFrom: objects + [object]) }

  /// Iterates the values, in order.
  public func makeIterator() -> IndexingIterator<[(any Sendable)?]> { objects.makeIterator() }

  /// The values, as `RACTuple(a, b, nil)`.
  public var description: String {
    "RACTuple(" + objects.map { $0.map { "\($0)" } ?? "nil" }.joined(separator: ", ") + ")"
  }
}
