import Foundation

/// Every `NSObject` has an `.rx` namespace, as in RxSwift.
extension NSObject: ReactiveCompatible {}
