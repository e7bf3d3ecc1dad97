/// A sequence whose shared subscription of its source starts on ``connect()`` (RxSwift's
/// `ConnectableObservableType`): ``ConnectableObservable`` and custom connectable sequences.
public protocol ConnectableObservableType: ObservableType {
  /// Subscribes the source, sending its events to the observers; disposing the returned disposable
  /// ends that subscription.
  func connect() -> any Disposable
}

extension ConnectableObservable: ConnectableObservableType {}
