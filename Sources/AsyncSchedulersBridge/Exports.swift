// `import ReactiveObjC` brought Foundation with it (its headers import it), and ReactiveObjC-era Swift
// relies on that (`NSArray`, `NSNumber`, `Date`, `NSError`). `import AsyncSchedulersBridge` in its place
// does the same.
@_exported import Foundation
