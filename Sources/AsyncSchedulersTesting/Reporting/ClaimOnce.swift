import Synchronization

/// The first of the callers that race to do one thing (a watch's report by one of two paths) wins:
/// `claim()` answers `true` once.
final class ClaimOnce: Sendable {
  private let claimed = Atomic<Bool>(false)

  /// `true` for the first caller only.
  func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}
