/// A sequence that is also an observer (RxSwift's `SubjectType`): what `multicast` shares a source
/// through. The bridge's subjects conform; a custom one forwards what its observer receives to its
/// observers.
public protocol SubjectType: ObservableType {
  /// The type of the observer side.
  associatedtype Observer: ObserverType

  /// The subject as an observer: events sent to it reach the subject's observers.
  func asObserver() -> Observer
}

extension PublishSubject: SubjectType {}
extension BehaviorSubject: SubjectType {}
extension ReplaySubject: SubjectType {}
extension AsyncSubject: SubjectType {}
