extension ObservableType {
  /// Drops a value whose property at `keyPath` equals the previous value's (RxSwift's
  /// `distinctUntilChanged(at:)`).
  public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
    let comparer = Comparer<Element> { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    return distinctUntilChanged { comparer.equal($0, $1) }
  }

  /// Subscribes again when the sequence `notificationHandler` makes from the errors of type
  /// `ErrorType` sends a value (RxSwift's typed `retry(when:)`); an error of another type fails the
  /// sequence.
  public func retry<Trigger: ObservableConvertibleType, ErrorType: Swift.Error & Sendable>(
    when notificationHandler: @escaping (Observable<ErrorType>) -> Trigger
  ) -> Observable<Element> {
    let notificationHandler = rxClosure(notificationHandler)
    return retry { (errors: Observable<any Swift.Error>) in
      notificationHandler(
        errors.map { error in
          guard let typed = error as? ErrorType else { throw error }
          return typed
        })
    }
  }
}

/// A comparison made from a key path, crossing threads.
private final class Comparer<Root>: @unchecked Sendable {
  // Why @unchecked Sendable: the one stored property is a `let` closure that only reads a property
  // through an immutable key path and compares it; it captures nothing else.
  let equal: (Root, Root) -> Bool
  init(_ equal: @escaping (Root, Root) -> Bool) { self.equal = equal }
}
