import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Drives `DrainQueue` with seeded random posts and drains (one item at a time or in batches), against
/// a model: a plain array and a count of started drains. After every step: at most one drain is started
/// and the queue says so, the items waiting are the model's, and every item taken is the oldest posted.
@Suite("DrainQueue model")
struct DrainQueueModelTests {
  @Test("random posts and drains hand every item over once, in order, with at most one drain")
  func randomSequences() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        var queue = DrainQueue<Int>()
        var model: [Int] = []
        var drains = 0
        var posted = 0
        var taken: [Int] = []
        var batch: [Int] = []
        for _ in 0..<200 {
          switch random.next() % 3 {
          case 0:
            model.append(posted)
            if queue.post(posted) { drains += 1 }
            posted += 1
          case 1 where drains == 1:
            if let item = queue.next() {
              taken.append(item)
              failures.check(item == model.removeFirst(), "seed \(seed): next() took \(item)")
            } else {
              failures.check(model.isEmpty, "seed \(seed): next() ended the drain with \(model) waiting")
              drains -= 1
            }
          case 2 where drains == 1:
            if queue.takeAll(into: &batch) {
              taken += batch
              failures.check(batch == model, "seed \(seed): takeAll took \(batch), model \(model)")
              model.removeAll()
            } else {
              failures.check(model.isEmpty && batch.isEmpty, "seed \(seed): takeAll ended the drain early")
              drains -= 1
            }
          default:
            break
          }
          failures.check(drains <= 1 && drains == (queue.isDraining ? 1 : 0), "seed \(seed): drains \(drains)")
          failures.check(queue.count == model.count && queue.isEmpty == model.isEmpty, "seed \(seed): count")
        }
        failures.check(taken == Array(0..<taken.count), "seed \(seed): taken out of order")
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("a post during a drain starts no second drain, and the drain takes it")
  func postDuringDrain() {
    var queue = DrainQueue<String>()
    let first = queue.post("a")
    let a = queue.next()
    let second = queue.post("b")
    let b = queue.next()
    let end = queue.next()
    let third = queue.post("c")
    #expect(first && a == "a" && !second && b == "b" && end == nil && third)
  }

  @Test("takeAll into a batch with a partly drained buffer keeps the order")
  func takeAllAfterNext() {
    var queue = DrainQueue<Int>()
    for item in 0..<5 { _ = queue.post(item) }
    let zero = queue.next()
    var batch = [99]
    let took = queue.takeAll(into: &batch)
    let taken = batch
    let tookAgain = queue.takeAll(into: &batch)
    #expect(zero == 0 && took && taken == [1, 2, 3, 4] && !tookAgain)
    #expect(batch.isEmpty && !queue.isDraining)
  }
}
