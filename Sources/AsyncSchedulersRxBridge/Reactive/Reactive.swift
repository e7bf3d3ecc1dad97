/// The `.rx` namespace of a type (RxSwift's `Reactive`): app code extends `Reactive where Base: …`
/// with its reactive properties, and every writable property of a class reads as a `Binder` through
/// it (`object.rx.title`), bound on the main scheduler.
@dynamicMemberLookup
public struct Reactive<Base> {
  /// The extended value.
  public let base: Base

  /// The namespace of `base`.
  public init(_ base: Base) { self.base = base }

  /// A binder that sets `keyPath` of the base object with each value, on the main scheduler, while
  /// the object lives (see ``Binder``).
  public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>)
    -> Binder<Property>
  where Base: AnyObject {
    let keyPath = UncheckedKeyPath(keyPath)
    return Binder(base) { base, value in base[keyPath: keyPath.keyPath] = value }
  }
}

/// A type with an `.rx` namespace (RxSwift's `ReactiveCompatible`): conform a type to it, then extend
/// `Reactive where Base == TheType` (or `Base: TheType`). `NSObject` conforms, as in RxSwift.
public protocol ReactiveCompatible {
  /// The type the namespace extends (the conforming type).
  associatedtype ReactiveBase

  /// The namespace of the type (for static reactive members).
  static var rx: Reactive<ReactiveBase>.Type { get set }

  /// The namespace of the value. Its setter does nothing: it lets `value.rx.property = …` mutate
  /// through a reactive extension's setter.
  var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
  /// The namespace of the type.
  public static var rx: Reactive<Self>.Type {
    get { Reactive<Self>.self }
    set {}  // Lets a reactive extension's static setter be called.
  }

  /// The namespace of the value.
  public var rx: Reactive<Self> {
    get { Reactive(self) }
    set {}  // Lets a reactive extension's setter be called on a `var`.
  }
}

/// A key path carried into a binding.
private final class UncheckedKeyPath<Root, Value>: @unchecked Sendable {
  // Why @unchecked Sendable: a key path is immutable; it is only used to set the property on the
  // binder's scheduler, where the object is used.
  let keyPath: ReferenceWritableKeyPath<Root, Value>
  init(_ keyPath: ReferenceWritableKeyPath<Root, Value>) { self.keyPath = keyPath }
}
