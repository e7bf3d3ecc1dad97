/// Marks the package's own Dispatch submissions on the calling thread (its schedulers' workers, a test
/// scheduler's stall watch), so the testing module's Dispatch hooks leave them alone: they are the
/// library's machinery, not the code under test, and must neither hold a capturing scope's clock nor
/// move onto it.
package enum PackageDispatch {
  private static let slot = ThreadSlot()

  /// Whether the calling thread is submitting the package's own Dispatch work now.
  @inline(__always)
  package static var isSubmitting: Bool { slot.isSet }

  /// Runs `submit` (a Dispatch call of the package's) marked as the package's own.
  @inline(__always)
  package static func submit<Result>(_ submit: () throws -> Result) rethrows -> Result {
    if slot.isSet { return try submit() }
    slot.isSet = true
    defer { slot.isSet = false }
    return try submit()
  }
}
