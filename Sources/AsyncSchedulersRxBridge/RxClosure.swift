/// A closure an app passed to one of the bridge's RxSwift APIs, carried where the bridge's machinery
/// needs a `Sendable` one.
///
/// RxSwift's closures are not `@Sendable`, and the bridge's public APIs take them the same way, so that
/// RxSwift code written in Swift 6 language mode (a main-actor view model's `subscribe(onNext:)` that sets
/// its own state, a closure capturing a non-`Sendable` service) compiles unchanged. The bridge calls such
/// a closure as RxSwift does: with the events of one subscription, one at a time (the observable
/// grammar), on the thread that sends them (the scheduler's, after `observe(on:)` or `subscribe(on:)`).
/// Keeping what the closure captures safe on that thread is the app's part, as under RxSwift; the
/// bridge's own state stays behind its locks.
@usableFromInline
package struct RxClosure<Function>: @unchecked Sendable {
  // Why @unchecked Sendable: the wrapped closure is only called, never mutated, and RxSwift's contract
  // (above) says on which thread and in which order; Swift cannot check a non-`Sendable` closure's
  // captures, and RxSwift never asked them to be `Sendable`.
  @usableFromInline package let function: Function

  @inlinable package init(_ function: Function) { self.function = function }
}

// The `@Sendable` forms below, one per arity up to RxSwift's largest (`combineLatest` of eight), are
// written out: Swift 6.3's compiler crashes lowering a closure over a parameter pack here.

/// The `@Sendable` form of a closure of 0 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<Result>(
  _ function: @escaping () -> Result
) -> @Sendable () -> Result {
  let box = RxClosure(function)
  return { box.function() }
}

/// The `@Sendable` form of a throwing closure of 0 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<Result>(
  _ function: @escaping () throws -> Result
) -> @Sendable () throws -> Result {
  let box = RxClosure(function)
  return { try box.function() }
}

/// The `@Sendable` form of a closure of 1 argument an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, Result>(
  _ function: @escaping (A) -> Result
) -> @Sendable (A) -> Result {
  let box = RxClosure(function)
  return { a in box.function(a) }
}

/// The `@Sendable` form of a throwing closure of 1 argument an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, Result>(
  _ function: @escaping (A) throws -> Result
) -> @Sendable (A) throws -> Result {
  let box = RxClosure(function)
  return { a in try box.function(a) }
}

/// The `@Sendable` form of a closure of 2 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, Result>(
  _ function: @escaping (A, B) -> Result
) -> @Sendable (A, B) -> Result {
  let box = RxClosure(function)
  return { a, b in box.function(a, b) }
}

/// The `@Sendable` form of a throwing closure of 2 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, Result>(
  _ function: @escaping (A, B) throws -> Result
) -> @Sendable (A, B) throws -> Result {
  let box = RxClosure(function)
  return { a, b in try box.function(a, b) }
}

/// The `@Sendable` form of a closure of 3 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, Result>(
  _ function: @escaping (A, B, C) -> Result
) -> @Sendable (A, B, C) -> Result {
  let box = RxClosure(function)
  return { a, b, c in box.function(a, b, c) }
}

/// The `@Sendable` form of a throwing closure of 3 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, Result>(
  _ function: @escaping (A, B, C) throws -> Result
) -> @Sendable (A, B, C) throws -> Result {
  let box = RxClosure(function)
  return { a, b, c in try box.function(a, b, c) }
}

/// The `@Sendable` form of a closure of 4 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, Result>(
  _ function: @escaping (A, B, C, D) -> Result
) -> @Sendable (A, B, C, D) -> Result {
  let box = RxClosure(function)
  return { a, b, c, d in box.function(a, b, c, d) }
}

/// The `@Sendable` form of a throwing closure of 4 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, Result>(
  _ function: @escaping (A, B, C, D) throws -> Result
) -> @Sendable (A, B, C, D) throws -> Result {
  let box = RxClosure(function)
  return { a, b, c, d in try box.function(a, b, c, d) }
}

/// The `@Sendable` form of a closure of 5 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, Result>(
  _ function: @escaping (A, B, C, D, E) -> Result
) -> @Sendable (A, B, C, D, E) -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e in box.function(a, b, c, d, e) }
}

/// The `@Sendable` form of a throwing closure of 5 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, Result>(
  _ function: @escaping (A, B, C, D, E) throws -> Result
) -> @Sendable (A, B, C, D, E) throws -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e in try box.function(a, b, c, d, e) }
}

/// The `@Sendable` form of a closure of 6 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, F, Result>(
  _ function: @escaping (A, B, C, D, E, F) -> Result
) -> @Sendable (A, B, C, D, E, F) -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e, f in box.function(a, b, c, d, e, f) }
}

/// The `@Sendable` form of a throwing closure of 6 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, F, Result>(
  _ function: @escaping (A, B, C, D, E, F) throws -> Result
) -> @Sendable (A, B, C, D, E, F) throws -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e, f in try box.function(a, b, c, d, e, f) }
}

/// The `@Sendable` form of a closure of 7 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, F, G, Result>(
  _ function: @escaping (A, B, C, D, E, F, G) -> Result
) -> @Sendable (A, B, C, D, E, F, G) -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e, f, g in box.function(a, b, c, d, e, f, g) }
}

/// The `@Sendable` form of a throwing closure of 7 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, F, G, Result>(
  _ function: @escaping (A, B, C, D, E, F, G) throws -> Result
) -> @Sendable (A, B, C, D, E, F, G) throws -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e, f, g in try box.function(a, b, c, d, e, f, g) }
}

/// The `@Sendable` form of a closure of 8 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, F, G, H, Result>(
  _ function: @escaping (A, B, C, D, E, F, G, H) -> Result
) -> @Sendable (A, B, C, D, E, F, G, H) -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e, f, g, h in box.function(a, b, c, d, e, f, g, h) }
}

/// The `@Sendable` form of a throwing closure of 8 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, C, D, E, F, G, H, Result>(
  _ function: @escaping (A, B, C, D, E, F, G, H) throws -> Result
) -> @Sendable (A, B, C, D, E, F, G, H) throws -> Result {
  let box = RxClosure(function)
  return { a, b, c, d, e, f, g, h in try box.function(a, b, c, d, e, f, g, h) }
}

/// The `@Sendable` form of an optional closure of 0 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<Result>(
  _ function: (() -> Result)?
) -> (@Sendable () -> Result)? {
  guard let function else { return nil }
  let box = RxClosure(function)
  return { box.function() }
}

/// The `@Sendable` form of an optional throwing closure of 0 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<Result>(
  _ function: (() throws -> Result)?
) -> (@Sendable () throws -> Result)? {
  guard let function else { return nil }
  let box = RxClosure(function)
  return { try box.function() }
}

/// The `@Sendable` form of an optional closure of 1 argument an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, Result>(
  _ function: ((A) -> Result)?
) -> (@Sendable (A) -> Result)? {
  guard let function else { return nil }
  let box = RxClosure(function)
  return { a in box.function(a) }
}

/// The `@Sendable` form of an optional throwing closure of 1 argument an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, Result>(
  _ function: ((A) throws -> Result)?
) -> (@Sendable (A) throws -> Result)? {
  guard let function else { return nil }
  let box = RxClosure(function)
  return { a in try box.function(a) }
}

/// The `@Sendable` form of an optional closure of 2 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, Result>(
  _ function: ((A, B) -> Result)?
) -> (@Sendable (A, B) -> Result)? {
  guard let function else { return nil }
  let box = RxClosure(function)
  return { a, b in box.function(a, b) }
}

/// The `@Sendable` form of an optional throwing closure of 2 arguments an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<A, B, Result>(
  _ function: ((A, B) throws -> Result)?
) -> (@Sendable (A, B) throws -> Result)? {
  guard let function else { return nil }
  let box = RxClosure(function)
  return { a, b in try box.function(a, b) }
}

/// The `@Sendable` form of an accumulating closure an app passed to an RxSwift API (see ``RxClosure``).
@inlinable package func rxClosure<Accumulate, Element>(
  _ function: @escaping (inout Accumulate, Element) throws -> Void
) -> @Sendable (inout Accumulate, Element) throws -> Void {
  let box = RxClosure(function)
  return { accumulated, element in try box.function(&accumulated, element) }
}
