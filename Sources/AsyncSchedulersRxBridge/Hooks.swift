import Synchronization

/// Process-wide hooks of the Rx bridge (RxSwift's `Hooks`): what happens to an error no subscriber
/// handles.
///
/// The hooks are read and set from any thread (under a lock); the handler runs on the thread that
/// delivered the error, must not block, and is never called for a subscription that was disposed. As
/// in RxSwift, the hooks need not be `@Sendable` (a test's handler appends to a local array): what
/// they touch on the delivering thread is the app's part (see `RxClosure`). The hooks are global:
/// errors of different subscriptions reach the handler from their own threads, possibly at once.
public enum Hooks {
  /// Handles an error that reached a `subscribe(onNext:onError:onCompleted:onDisposed:)` given no
  /// `onError`: the subscription's call stack (as ``customCaptureSubscriptionCallstack`` captured it,
  /// empty unless ``recordCallStackOnError``) and the error. The default does nothing (RxSwift's prints
  /// in debug builds); set it to fail a test or log.
  public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: any Error) -> Void

  /// Captures the call stack of a subscription, for ``DefaultErrorHandler``.
  public typealias CustomCaptureSubscriptionCallstack = () -> [String]

  private static let state = Mutex(
    (
      handler: RxClosure<DefaultErrorHandler>({ _, _ in }),
      capture: RxClosure<CustomCaptureSubscriptionCallstack>({ [] }),
      recordCallStack: false
    ))

  /// The handler of errors no subscriber handles (see ``DefaultErrorHandler``).
  public static var defaultErrorHandler: DefaultErrorHandler {
    get { state.withCriticalRegion { $0.handler }.function }
    set {
      let handler = RxClosure(newValue)
      state.withCriticalRegion { $0.handler = handler }
    }
  }

  /// How a subscription's call stack is captured when ``recordCallStackOnError`` is set (default: none).
  public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
    get { state.withCriticalRegion { $0.capture }.function }
    set {
      let capture = RxClosure(newValue)
      state.withCriticalRegion { $0.capture = capture }
    }
  }

  /// Whether each subscription without `onError` captures its call stack when it starts (a cost per
  /// subscription; off by default).
  public static var recordCallStackOnError: Bool {
    get { state.withCriticalRegion { $0.recordCallStack } }
    set { state.withCriticalRegion { $0.recordCallStack = newValue } }
  }

  /// The call stack to hand to the handler for a subscription starting now.
  @usableFromInline static func subscriptionCallStack() -> [String] {
    recordCallStackOnError ? customCaptureSubscriptionCallstack() : []
  }
}
