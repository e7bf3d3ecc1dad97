/// Stops the program because a public API got a bad argument, with `message` (which names the API, the
/// argument and the value) in every build configuration: `precondition`'s message is dropped under
/// `-O`, `fatalError`'s is not.
@inline(never) @usableFromInline
package func argumentFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError(message, file: file, line: line)
}

/// Checks an argument of a public API: does nothing when `condition` holds, otherwise stops the program
/// with `message`, kept in release builds (see ``argumentFailure(_:file:line:)``). Use it for every
/// documented precondition on input; keep `precondition` for internal invariants.
@inlinable @inline(__always)
package func checkArgument(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if _slowPath(!condition()) { argumentFailure(message(), file: file, line: line) }
}
