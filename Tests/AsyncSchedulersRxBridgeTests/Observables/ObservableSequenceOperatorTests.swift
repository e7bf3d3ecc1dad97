import AsyncSchedulers
import AsyncSchedulersRxBridge
import Foundation
import Synchronization
import Testing

@Suite("Observable operators over sequences of observables: lazy concat, catch(sequence:)")
struct ObservableSequenceOperatorTests {
  @Test("concat of an endless lazy sequence takes each observable only when the previous one completed")
  func lazyConcat() {
    let taken = Mutex(0)
    let endless = (0...).lazy.map { index -> Observable<Int> in
      taken.withCriticalRegion { $0 += 1 }
      return .just(index)
    }
    #expect(trace(Observable.concat(endless).take(3)) == ["0", "1", "2", "completed"])
    #expect(taken.withCriticalRegion { $0 } == 3)
  }

  @Test("catch(sequence:) moves to the next observable on each error and ends with the last error when all fail")
  func catchSequence() {
    let first = Observable<Int>.concat(.just(1), .error(TestError(name: "one")))
    let second = Observable<Int>.concat(.just(2), .error(TestError(name: "two")))
    #expect(trace(Observable.catch(sequence: [first, second, .just(3)])) == ["1", "2", "3", "completed"])
    #expect(trace(Observable.catch(sequence: [first, second])) == ["1", "2", "error(two)"])
    #expect(trace(Observable<Int>.catch(sequence: [])) == ["completed"])
  }

  @Test("decode(type:decoder:) decodes each Data value, and a decoding error fails the sequence")
  func decode() throws {
    struct User: Decodable, Sendable, CustomStringConvertible {
      let name: String
      var description: String { name }
    }
    let good = Data(#"{"name": "Ada"}"#.utf8)
    #expect(trace(Observable.just(good).decode(type: User.self, decoder: JSONDecoder())) == ["Ada", "completed"])
    let failed = trace(Observable.just(Data("nope".utf8)).decode(type: User.self, decoder: JSONDecoder()))
    #expect(failed.count == 1 && failed[0].hasPrefix("error("))
  }
}
