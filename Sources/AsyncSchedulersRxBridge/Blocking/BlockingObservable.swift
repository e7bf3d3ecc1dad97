import CoreFoundation
import Dispatch
import Foundation
import Synchronization

/// A sequence read by blocking the calling thread until it ends (RxBlocking's `BlockingObservable`,
/// made by ``ObservableConvertibleType/toBlocking(timeout:)``): for tests and command-line tools,
/// never for an app's main thread.
///
/// Each call subscribes, waits for what it needs (the end, or the first value for ``first()``), then
/// disposes the subscription. On the main thread the wait runs the main run loop, so work scheduled on
/// the main queue (`MainScheduler`) still runs; elsewhere it blocks on a semaphore. With a `timeout`,
/// a wait that lasts longer ends the subscription and fails with ``RxError/timeout``.
public struct BlockingObservable<Element>: Sendable {
  let timeout: TimeInterval?
  let source: Observable<Element>

  /// All values, once the sequence completes; its error (or ``RxError/timeout``) is thrown.
  public func toArray() throws -> [Element] { try elementsOrThrow(materializeResult()) }

  /// The first value (`nil` when the sequence completes with none); the subscription ends as soon as
  /// it arrives. An error before it is thrown.
  public func first() throws -> Element? { try elementsOrThrow(materializeResult(max: 1)).first }

  /// The last value, once the sequence completes (`nil` when it sent none); an error is thrown.
  public func last() throws -> Element? { try elementsOrThrow(materializeResult()).last }

  /// The one value of the sequence: ``RxError/noElements`` when it completes with none,
  /// ``RxError/moreThanOneElement`` as soon as a second arrives.
  public func single() throws -> Element { try single { _ in true } }

  /// The one value that passes `predicate` (on the delivering thread; a throw ends the wait with it):
  /// errors as ``single()``.
  public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
    let elements = try elementsOrThrow(materializeResult(max: 2, predicate: rxClosure(predicate)))
    guard elements.count <= 1 else { throw RxError.moreThanOneElement }
    guard let element = elements.first else { throw RxError.noElements }
    return element
  }

  /// How the sequence ended and what it sent, never throwing (a timeout is a failure with
  /// ``RxError/timeout``).
  public func materialize() -> MaterializedSequenceResult<Element> { materializeResult() }

  private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
    switch result {
    case .completed(let elements): return elements
    case .failed(_, let error): throw error
    }
  }

  /// Subscribes and waits until the sequence ends or `max` values passed `predicate`.
  private func materializeResult(
    max: Int? = nil, predicate: @escaping @Sendable (Element) throws -> Bool = { _ in true }
  ) -> MaterializedSequenceResult<Element> {
    let wait = BlockingWait<RxElement<Element>>(max: max)
    let subscription = source.subscribe(
      AnyObserver { event in
        switch event {
        case .next(let element):
          // A synchronous source goes on sending until `subscribe` returns: the read is over already.
          guard !wait.isOver else { return }
          do {
            if try predicate(element) { wait.add(RxElement(element)) }
          } catch {
            wait.end(error)
          }
        case .error(let error): wait.end(error)
        case .completed: wait.end(nil)
        }
      })
    let ended = wait.block(timeout: timeout)
    subscription.dispose()
    let elements = wait.elements.map(\.value)
    guard ended else { return .failed(elements: elements, error: RxError.timeout) }
    if let error = wait.error { return .failed(elements: elements, error: error) }
    return .completed(elements: elements)
  }
}

extension ObservableConvertibleType {
  /// This sequence, read by blocking the calling thread (RxBlocking's `toBlocking(timeout:)`); see
  /// ``BlockingObservable``. `timeout` is in seconds (`nil`: wait as long as it takes).
  public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
    BlockingObservable(timeout: timeout, source: asObservable())
  }
}

/// What one blocking read collects, and the wait for its end: values and the end arrive from the
/// delivering thread; the reading thread blocks on a semaphore, or runs the main run loop on the main
/// thread, woken when the read is over.
final class BlockingWait<Element: Sendable>: Sendable {
  private struct State {
    var elements: [Element] = []
    var end: (any Error)?? = nil
    var wake: (@Sendable () -> Void)?
  }
  private let max: Int?
  private let state = Mutex(State())
  private let done = DispatchSemaphore(value: 0)

  init(max: Int?) { self.max = max }

  /// Adds a value; the read is over once `max` have arrived.
  func add(_ element: Element) {
    let over = state.withCriticalRegion { state -> Bool in
      guard state.end == nil else { return false }
      state.elements.append(element)
      guard let max, state.elements.count >= max else { return false }
      state.end = .some(nil)
      return true
    }
    if over { finish() }
  }

  /// Ends the read: with `error`, or completed (`nil`).
  func end(_ error: (any Error)?) {
    let first = state.withCriticalRegion { state -> Bool in
      guard state.end == nil else { return false }
      state.end = .some(error)
      return true
    }
    if first { finish() }
  }

  private func finish() {
    done.signal()
    state.withCriticalRegion { $0.wake }?()
  }

  var elements: [Element] { state.withCriticalRegion { $0.elements } }

  /// Whether the read has ended (later events are ignored).
  var isOver: Bool { state.withCriticalRegion { $0.end != nil } }

  /// The error that ended the read, or `nil` (completed, or not over).
  var error: (any Error)? {
    state.withCriticalRegion { state in
      if case .some(.some(let error)) = state.end { return error }
      return nil
    }
  }

  /// Blocks until the read is over; `false` when `timeout` (seconds) passed first.
  func block(timeout: TimeInterval?) -> Bool {
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) } ?? .distantFuture
    if Thread.isMainThread {
      // Serve the main queue while waiting (its work may be what ends the read): run the main run loop
      // until the end stops it, as RxBlocking does.
      let loop = MainRunLoop()
      state.withCriticalRegion { $0.wake = { loop.stop() } }
      while state.withCriticalRegion({ $0.end == nil }) {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return false }
        // `false`: the run loop has no input source (it cannot serve the main queue): block instead.
        if !loop.run(for: Swift.min(remaining, 1e9)) { break }
      }
      if state.withCriticalRegion({ $0.end != nil }) { return true }
    }
    let seconds = Swift.max(0, Swift.min(deadline.timeIntervalSinceNow, 1e9))
    let dispatchDeadline: DispatchTime =
      timeout == nil ? .distantFuture : .now() + .nanoseconds(Int((seconds * 1e9).rounded(.down)))
    return done.wait(timeout: dispatchDeadline) == .success
  }
}

/// The calling (main) thread's run loop, run until stopped from another thread.
private final class MainRunLoop: @unchecked Sendable {
  // Why @unchecked Sendable: the other threads only call CFRunLoopPerformBlock and CFRunLoopWakeUp on
  // it, which Core Foundation makes thread-safe; only the owning thread runs it.
  private let loop = CFRunLoopGetCurrent()!

  #if canImport(Darwin)
    private let mode = CFRunLoopMode.defaultMode!.rawValue
  #else
    private let mode: CFString = unsafeBitCast(RunLoop.Mode.default.rawValue._bridgeToObjectiveC(), to: CFString.self)
  #endif

  /// Runs the loop for at most `seconds`; `false` when it has no input source to wait on.
  func run(for seconds: TimeInterval) -> Bool {
    #if canImport(Darwin)
      CFRunLoopRunInMode(.defaultMode, seconds, false) != .finished
    #else
      CFRunLoopRunInMode(mode, seconds, false) != .finished
    #endif
  }

  /// Stops the loop from any thread.
  func stop() {
    let loop = self.loop
    CFRunLoopPerformBlock(loop, mode) { CFRunLoopStop(loop) }
    CFRunLoopWakeUp(loop)
  }
}
