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
  /// - Precondition: every element is a `RACSignal`, as for `combineLatest(_:)` over an `NSArray`.
  public class func zip(_ signals: NSArray) -> RACSignal<RACTuple> {
    zip(erased(signals, api: "RACSignal.zip"))
  }

  /// `+merge:` over an `NSArray` of signals of any value types: every signal's values as they come;
  /// completes when all have completed.
  ///
  /// - Precondition: every element is a `RACSignal`, as for `combineLatest(_:)` over an `NSArray`.
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

/// ReactiveObjC-era Swift that names a value type where Objective-C had none: functions declared to
/// return `RACSignal<AnyObject>` (or `RACSignal<RACTuple>`) that combine an `NSArray` of signals (and
/// return `RACSignal()`, see ``RACSignal/init()``). The same spellings as on the untyped signal, typed
/// by what the context expects. Object types only (`Value: AnyObject`, as Objective-C's generics were),
/// so that code with no expected type keeps the untyped signal's forms.
extension RACSignal where Value: AnyObject {
  /// `+combineLatest:` over an `NSArray` of signals, where a signal of this value type is expected
  /// (`RACSignal<AnyObject>`, `RACSignal<RACTuple>`): each ``RACTuple``, as a value of that type.
  ///
  /// - Precondition: a ``RACTuple`` is a `Value` (`AnyObject`, `RACTuple`); another class stops the
  ///   program at the call, naming the API and the type. Every element is a `RACSignal`, as for the
  ///   untyped signal's `combineLatest(_:)`.
  public class func combineLatest(_ signals: NSArray) -> RACSignal<Value> {
    tuples(RACSignal<any Sendable>.combineLatest(signals), api: "RACSignal.combineLatest")
  }

  /// `+zip:` over an `NSArray` of signals, where a signal of this value type is expected: each
  /// ``RACTuple``, as a value of that type.
  ///
  /// - Precondition: a ``RACTuple`` is a `Value`, as for `combineLatest(_:)` over an `NSArray`.
  public class func zip(_ signals: NSArray) -> RACSignal<Value> {
    tuples(RACSignal<any Sendable>.zip(signals), api: "RACSignal.zip")
  }

  /// `+merge:` over an `NSArray` of signals, where a signal of this value type is expected
  /// (`RACSignal<AnyObject>`): every signal's values as they come, as values of that type.
  ///
  /// - Precondition: every value sent is a `Value` (with `AnyObject`, any value is); a value that is
  ///   not stops the program, naming the API, the value's type and `Value`.
  public class func merge(_ signals: NSArray) -> RACSignal<Value> {
    RACSignal<any Sendable>.merge(signals).cast(api: "RACSignal.merge")
  }

  /// `tuples`, its values as `Value`s; stops the program at once unless a ``RACTuple`` is a `Value`.
  private class func tuples(_ tuples: RACSignal<RACTuple>, api: String) -> RACSignal<Value> {
    guard (RACTuple(objectsFrom: []) as Any) is Value else {
      argumentFailure("\(api): the values are RACTuples, which are not \(Value.self): expect a RACSignal<AnyObject>")
    }
    return tuples.cast(api: api)
  }
}

extension RACSignal {
  /// This signal, its values cast to `Target`; a value that is not one stops the program, naming `api`.
  fileprivate func cast<Target: Sendable>(api: String) -> RACSignal<Target> {
    RACSignal<Target>(
      native.map { value -> Target? in
        guard let value else { return nil }
        guard let cast = value as? Target else {
          argumentFailure("\(api): a \(type(of: value as Any)) was sent where the signal's values are \(Target.self)")
        }
        return cast
      })
  }
}
