import AsyncSchedulers
import AsyncSchedulersRxBridge
import Testing

@Suite("Subjects and relays")
struct SubjectTests {
  @Test("PublishSubject sends to current observers; a late observer gets the end only")
  func publish() {
    let subject = PublishSubject<Int>()
    let early = Recorder<Int>()
    _ = subject.subscribe(early)
    subject.onNext(1)
    subject.onCompleted()
    subject.onNext(2)
    let late = Recorder<Int>()
    _ = subject.subscribe(late)
    #expect(early.trace == ["1", "completed"])
    #expect(late.trace == ["completed"])
  }

  @Test("BehaviorSubject sends its current value first; value() throws the error that ended it")
  func behavior() throws {
    let subject = BehaviorSubject(value: 0)
    let recorder = Recorder<Int>()
    _ = subject.subscribe(recorder)
    subject.onNext(1)
    #expect(try subject.value() == 1)
    subject.onError(TestError())
    #expect(recorder.trace == ["0", "1", "error(boom)"])
    #expect(throws: TestError.self) { try subject.value() }
    let late = Recorder<Int>()
    _ = subject.subscribe(late)
    #expect(late.trace == ["error(boom)"])
  }

  @Test("ReplaySubject replays its buffer, then the end, to late observers")
  func replay() {
    let subject = ReplaySubject<Int>.create(bufferSize: 2)
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    subject.onCompleted()
    let late = Recorder<Int>()
    _ = subject.subscribe(late)
    #expect(late.trace == ["2", "3", "completed"])
  }

  @Test("AsyncSubject sends only the last value, on completion")
  func async() {
    let subject = AsyncSubject<Int>()
    let recorder = Recorder<Int>()
    _ = subject.subscribe(recorder)
    subject.onNext(1)
    subject.onNext(2)
    #expect(recorder.trace.isEmpty)
    subject.onCompleted()
    #expect(recorder.trace == ["2", "completed"])
  }

  @Test("A disposed subject ignores events and fails new observers with RxError.disposed")
  func disposed() {
    let subject = PublishSubject<Int>()
    subject.dispose()
    subject.onNext(1)
    let recorder = Recorder<Int>()
    _ = subject.subscribe(recorder)
    #expect(subject.isDisposed)
    #expect(recorder.trace.count == 1)
    #expect(recorder.trace.first?.hasPrefix("error(") == true)
  }

  @Test("Relays accept values and never end; bind(to:) feeds them")
  func relays() {
    let behavior = BehaviorRelay(value: "a")
    let publish = PublishRelay<String>()
    let recorder = Recorder<String>()
    _ = publish.subscribe(recorder)
    _ = Observable.of("b", "c").bind(to: behavior)
    _ = behavior.asObservable().bind(to: publish)
    #expect(behavior.value == "c")
    #expect(recorder.trace == ["c"])
    let replay = ReplayRelay<Int>.create(bufferSize: 1)
    replay.accept(1)
    replay.accept(2)
    let late = Recorder<Int>()
    _ = replay.subscribe(late)
    #expect(late.trace == ["2"])
  }

  @Test("an observer subscribing from a subject's end handler gets the replay and the end before the handler returns")
  func subscribingDuringTheEnd() {
    let subject = ReplaySubject<Int>.create(bufferSize: 1)
    let log = Log()
    _ = subject.subscribe(onCompleted: {
      _ = subject.subscribe(onNext: { log("late \($0)") }, onCompleted: { log("late completed") })
      log("handler returns")
    })
    subject.onNext(7)
    subject.onCompleted()
    #expect(log.values == ["late 7", "late completed", "handler returns"])
  }
}
