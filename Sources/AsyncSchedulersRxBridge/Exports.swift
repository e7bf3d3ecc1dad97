// `import AsyncSchedulersRxBridge` alone is what a migrating file writes in place of `import RxSwift`:
// the Rx names that are the core's own types (`Disposable`, `DisposeBag`, `CompositeDisposable`,
// `SerialDisposable`, …) must be visible through it. A file importing both modules sees the same
// declarations twice, which Swift does not consider ambiguous.
@_exported import AsyncSchedulers
