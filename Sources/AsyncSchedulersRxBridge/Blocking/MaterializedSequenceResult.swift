/// How a sequence read by a ``BlockingObservable`` ended, with the values it sent (RxBlocking's
/// `MaterializedSequenceResult`).
public enum MaterializedSequenceResult<T> {
  /// The sequence completed after sending `elements`.
  case completed(elements: [T])
  /// The sequence failed with `error` (``RxError/timeout`` when the wait timed out) after sending
  /// `elements`.
  case failed(elements: [T], error: any Error)
}
