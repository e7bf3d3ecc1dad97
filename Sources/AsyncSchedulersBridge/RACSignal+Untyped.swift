import AsyncSchedulers
import AsyncSignals
import Foundation

/// ReactiveObjC-era untyped Swift: where Objective-C's `RACSignal *` had no value type, the bridge's
/// untyped signal is `RACSignal<any Sendable>`, and these spellings pick it without naming it.
extension RACSignal where Value == any Sendable {
  /// A signal that never sends anything, as ReactiveObjC's plain `[RACSignal new]` (`RACSignal()` in
  /// Swift); the same as ``never()``.
  public convenience init() { self.init(.never()) }

  /// `+combineLatest:` over an `NSArray` of signals of any value types (`signals as NSArray`, an
  /// `NSMutableArray` built up in a loop): a ``RACTuple`` of every signal's latest value, in the
  /// array's order, each time one sends, once all have; completes when all have completed; no
  /// signals: completes at once.
  ///
  /// - Precondition: every element is a `RACSignal` (of any value type); another element stops the
  ///   program with a message naming its index and type.
  public class func combineLatest(_ signals: NSArray) -> RACSignal<RACTuple> {
    combineLatest(erased(signals, api: "RACSignal.combineLatest"))
  }

  /// `+zip:` over an `NSArray` of signals of any value types: a ``RACTuple`` of every signal's values
  /// of the same index, in the array's order.
  ///
  /// - Precondition: every element is a `RACSignal`, as for ``combineLatest(_:)-(NSArray)``.
  public class func zip(_ signals: NSArray) -> RACSignal<RACTuple> {
    zip(erased(signals, api: "RACSignal.zip"))
  }

  /// `+merge:` over an `NSArray` of signals of any value types: every signal's values as they come;
  /// completes when all have completed.
  ///
  /// - Precondition: every element is a `RACSignal`, as for ``combineLatest(_:)-(NSArray)``.
  public class func merge(_ signals: NSArray) -> RACSignal<any Sendable> {
    merge(erased(signals, api: "RACSignal.merge"))
  }

  /// The array's signals as untyped ones; anything else stops the program, naming `api`, the index and
  /// the element's type.
  private class func erased(_ signals: NSArray, api: String) -> [RACSignal<any Sendable>] {
    signals.enumerated().map { index, element in
      guard let signal = element as? any UntypedRACSignalConvertible else {
        argumentFailure("\(api): element \(index) of the array is a \(type(of: element)), not a RACSignal")
      }
      return signal.untyped
    }
  }
}

/// A signal of any value type, seen as an untyped one (for the `NSArray` forms).
protocol UntypedRACSignalConvertible {
  /// The same signal, its values as `any Sendable`.
  var untyped: RACSignal<any Sendable> { get }
}

extension RACSignal: UntypedRACSignalConvertible {
  var untyped: RACSignal<any Sendable> {
    if let same = self as? RACSignal<any Sendable> { return same }
    return RACSignal<any Sendable>(native.map { $0.map { $0 as any Sendable } })
  }
}
