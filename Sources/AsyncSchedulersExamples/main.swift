// `swift run AsyncSchedulersExamples`: a real demonstration of each scheduler, of cancellation, and of
// virtual-time testing. Every snippet in README.md, Migration.md and the DocC articles lives in this target,
// so they compile.

print("== Schedulers")
await SchedulersDemo.run()
print("== Cancellation")
await CancellationDemo.run()
print("== Virtual time")
VirtualTimeDemo.run()
await CaptureDemo.run()
await AppCodeDemo.run()
print("== Migration snippets")
await MigrationSnippets.run()
print("== RACScheduler bridge")
await BridgeSnippets.run()
print("== RxSwift bridge")
await RxSnippets.run()
print("== Signals")
await SignalsDemo.run()
print("== Article snippets")
await ArticleSnippets.run()
print("All examples ran.")
