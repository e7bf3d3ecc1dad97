import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Synchronization
import Testing

@testable import AsyncSchedulers

/// Seeded random sequences of operations on the disposables' phase machines, each checked after every
/// step against a small reference model: what has run, how often, what is disposed, and what is still
/// alive (deinit counters).
@Suite("Disposables model")
struct DisposablesModelTests {
  @Test("ScheduledAction: random runs and disposes of one-shot and repeating handles match the model")
  func scheduledAction() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        let counter = LifetimeCounter()
        let runs = Log<Int>()
        let repeating = random.next() % 2 == 0
        var modelRuns = 0
        var modelDisposed = false
        var modelFinished = false
        do {
          // The closure is the token's only owner.
          let action = ScheduledAction(keepsBody: repeating) { [token = counter.make()] in
            withExtendedLifetime(token) { runs.append(1) }
          }
          for step in 0..<Int(random.next() % 12) {
            if random.next() % 3 == 0 {
              action.dispose()
              modelDisposed = true
            } else {
              action.run()
              if !modelDisposed && !modelFinished {
                modelRuns += 1
                if !repeating { modelFinished = true }
              }
            }
            failures.check(
              runs.values.count == modelRuns, "seed \(seed) step \(step): ran \(runs.values.count), model \(modelRuns)")
            failures.check(action.isDisposed == (modelDisposed || modelFinished), "seed \(seed) step \(step)")
            // The closure is released as soon as nothing can run it again.
            let released = modelDisposed || modelFinished
            failures.check(
              (counter.count == 0) == released,
              "seed \(seed) step \(step): captures alive \(counter.count), released \(released)")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("CompositeDisposable: random adds, handle removals and disposes match the model")
  func composite() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        let composite = CompositeDisposable()
        var children: [(child: CountingDisposable, handle: CompositeDisposable.Handle, held: Bool)] = []
        var disposed = false
        for step in 0..<40 {
          switch random.next() % 6 {
          case 0, 1, 2:
            let child = CountingDisposable()
            let handle = composite.add(child)
            // Adding to a disposed composite disposes the child at once.
            children.append((child, handle, !disposed))
          case 3 where !children.isEmpty:
            let index = Int(random.next() % UInt64(children.count))
            children[index].handle.dispose()
            children[index].held = false
          case 4:
            composite.dispose()
            if !disposed { for index in children.indices where children[index].held { children[index].held = false } }
            disposed = true
          default:
            break
          }
          let held = children.filter(\.held).count
          failures.check(composite.count == held, "seed \(seed) step \(step): count \(composite.count), model \(held)")
          failures.check(composite.isDisposed == disposed, "seed \(seed) step \(step)")
          for entry in children {
            if entry.child.disposals.load(ordering: .relaxed) > 1 {
              failures.record("seed \(seed) step \(step): a child disposed twice")
            }
            if entry.handle.isDisposed != !entry.held { failures.record("seed \(seed) step \(step): handle state") }
          }
        }
        // Disposed children are exactly those held at the composite's disposal, or added after it.
        if disposed {
          failures.check(children.allSatisfy { $0.child.isDisposed || !$0.held }, "seed \(seed)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("SerialDisposable: random replacements and disposes dispose every replaced inner exactly once")
  func serial() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        let serial = SerialDisposable()
        var all: [CountingDisposable] = []
        var current: CountingDisposable?
        var disposed = false
        for step in 0..<30 {
          if random.next() % 4 == 0 {
            serial.dispose()
            disposed = true
            current = nil
          } else {
            let child = CountingDisposable()
            all.append(child)
            serial.inner = child
            current = disposed ? nil : child
          }
          for child in all where child.disposals.load(ordering: .relaxed) != (child === current ? 0 : 1) {
            failures.record(
              "seed \(seed) step \(step): an inner disposed \(child.disposals.load(ordering: .relaxed)) times")
          }
          failures.check(serial.isDisposed == disposed, "seed \(seed) step \(step)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
