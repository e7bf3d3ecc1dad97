import AsyncSchedulersRxBridge
import Foundation
import Testing

/// An error only this test sends: other tests running meanwhile may hand the hook errors of their own.
private struct Probe: Error, CustomStringConvertible {
  let name: String
  var description: String { name }
}

@Suite("Hooks", .serialized)
struct HooksTests {
  @Test("an error no subscriber handles goes to Hooks.defaultErrorHandler, with the captured call stack")
  func unhandledErrorsReachTheDefaultHandler() {
    let log = Log()
    let saved = (Hooks.defaultErrorHandler, Hooks.customCaptureSubscriptionCallstack, Hooks.recordCallStackOnError)
    defer {
      (Hooks.defaultErrorHandler, Hooks.customCaptureSubscriptionCallstack, Hooks.recordCallStackOnError) = saved
    }
    Hooks.defaultErrorHandler = { stack, error in if error is Probe { log("\(stack) \(error)") } }
    Hooks.customCaptureSubscriptionCallstack = { ["frame"] }
    _ = Observable<Int>.error(Probe(name: "unhandled")).subscribe(onNext: { _ in })
    _ = Observable<Int>.error(Probe(name: "handled")).subscribe(onError: { _ in log("handled") })
    Hooks.recordCallStackOnError = true
    _ = Observable<Int>.error(Probe(name: "with stack")).subscribe()
    #expect(log.values == ["[] \(Probe(name: "unhandled"))", "handled", "[\"frame\"] \(Probe(name: "with stack"))"])
  }

  @Test("a Maybe's error with no onError goes to Hooks.defaultErrorHandler too")
  func maybeErrorsReachTheDefaultHandler() {
    let log = Log()
    let saved = Hooks.defaultErrorHandler
    defer { Hooks.defaultErrorHandler = saved }
    Hooks.defaultErrorHandler = { _, error in if error is Probe { log("\(error)") } }
    _ = Maybe<Int>.error(Probe(name: "maybe")).subscribe()
    _ = Maybe<Int>.error(Probe(name: "handled")).subscribe(onError: { _ in log("handled") })
    #expect(log.values == ["maybe", "handled"])
  }

  @Test("a handler may append to a local array: it need not be @Sendable, as in RxSwift")
  func handlerCapturesLocalState() {
    var seen: [String] = []
    let saved = Hooks.defaultErrorHandler
    defer { Hooks.defaultErrorHandler = saved }
    let thread = Thread.current
    Hooks.defaultErrorHandler = { _, error in
      // Other tests' errors may arrive from their threads; this test's arrive on its own thread.
      if error is Probe && Thread.current == thread { seen.append("\(error)") }
    }
    _ = Observable<Int>.error(Probe(name: "local")).subscribe()
    #expect(seen == ["local"])
  }
}
