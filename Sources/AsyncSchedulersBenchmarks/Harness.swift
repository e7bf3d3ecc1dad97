import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One reported figure: ours against the platform baseline measured in the same run.
struct Figure {
  enum Target {
    /// ours ÷ baseline must be at most this.
    case ratio(Double)
    /// ours must be at most this, in the figure's unit.
    case absolute(Double)
    /// ours must equal this exactly.
    case exactly(Double)
    /// Reported for information, with no target (a mode's cost shown beside the default's).
    case info
  }

  var scenario: String
  var ours: Double
  var baseline: Double
  var unit: String
  var target: Target
  var oursSpread: ClosedRange<Double>? = nil
  var baselineSpread: ClosedRange<Double>? = nil

  var ratio: Double { baseline == 0 ? .nan : ours / baseline }

  var met: Bool {
    switch target {
    case .ratio(let limit): ratio <= limit
    case .absolute(let limit): ours <= limit
    case .exactly(let value): ours == value
    case .info: true
    }
  }

  /// The value the target judges: the ratio for a ratio target, ours otherwise.
  var judged: Double {
    switch target {
    case .ratio, .info: ratio
    case .absolute, .exactly: ours
    }
  }

  var targetValue: Double {
    switch target {
    case .ratio(let value), .absolute(let value), .exactly(let value): value
    case .info: .nan
    }
  }

  var targetText: String {
    switch target {
    case .ratio(let value): "≤ \(format(value))×"
    case .absolute(let value): "≤ \(format(value)) \(unit)"
    case .exactly(let value): "= \(format(value)) \(unit)"
    case .info: "(info)"
    }
  }
}

func format(_ value: Double) -> String {
  if value.isNaN { return "n/a" }
  if value == value.rounded() && abs(value) < 1e9 { return String(Int(value)) }
  if abs(value) >= 100 { return String(format: "%.0f", value) }
  if abs(value) >= 10 { return String(format: "%.1f", value) }
  return String(format: "%.3g", value)
}

/// How big and how many rounds.
struct RunOptions {
  var quick = false
  var rounds: Int { quick ? 3 : 7 }
  func size(_ full: Int, quick small: Int) -> Int { quick ? small : full }
}

/// Measures `ours` and `baseline` interleaved: one warm-up each, then `rounds` rounds; returns the
/// per-operation medians and spreads in nanoseconds.
func compare(
  scenario: String, operations: Int, options: RunOptions, target: Figure.Target,
  ours: () -> Duration, baseline: () -> Duration
) -> Figure {
  let only = ProcessInfo.processInfo.environment["BENCH_ONLY"]
  let ours = only == "baseline" ? { Duration.zero } : ours
  let baseline = only == "ours" ? { Duration.zero } : baseline
  _ = ours()
  _ = baseline()
  var oursSamples: [Double] = []
  var baselineSamples: [Double] = []
  for _ in 0..<options.rounds {
    oursSamples.append(nanoseconds(ours()) / Double(operations))
    baselineSamples.append(nanoseconds(baseline()) / Double(operations))
  }
  return Figure(
    scenario: scenario, ours: median(oursSamples), baseline: median(baselineSamples), unit: "ns/op",
    target: target, oursSpread: oursSamples.min()!...oursSamples.max()!,
    baselineSpread: baselineSamples.min()!...baselineSamples.max()!)
}

func nanoseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1
    ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func time(_ body: () -> Void) -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  body()
  return clock.now - start
}

/// Runs an async body to completion from synchronous code (the benchmarks' top level).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    box.value = await body()
    done.signal()
  }
  done.wait()
  return box.value!
}

/// Holds one value handed from a task to the waiting thread.
final class ResultBox<T>: @unchecked Sendable {
  // Why @unchecked Sendable: written once by the task before it signals the semaphore the reader waits
  // on; the semaphore orders the write before the read.
  var value: T?
}

/// Reads a field of /proc/self/status in kilobytes (Linux); 0 elsewhere.
func procStatusKilobytes(_ field: String) -> Double {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
    let digits = line.split(separator: " ").compactMap { Double($0) }
    return digits.first ?? 0
  }
  return 0
}

/// The bytes of heap memory in use by the process's allocations, on Linux: what live objects cost,
/// whether or not their pages were already resident. Read from glibc's `malloc_info` totals over every
/// arena: memory obtained from the system, less the free chunks, plus `mmap`ed blocks. `nil` elsewhere.
func heapBytesInUse() -> Double? {
  #if canImport(Glibc)
    typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return nil }
    let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
    var buffer: UnsafeMutablePointer<CChar>? = nil
    var size = 0
    guard let stream = open_memstream(&buffer, &size) else { return nil }
    _ = mallocInfo(0, stream)
    fclose(stream)
    defer { free(buffer) }
    guard let buffer else { return nil }
    // The process-wide totals follow the last arena's `</heap>`.
    let text = String(cString: buffer)
    let totals = text.range(of: "</heap>", options: .backwards).map { text[$0.upperBound...] } ?? text[...]
    return sizeAfter("<system type=\"current\"", in: totals) - sizeAfter("<total type=\"fast\"", in: totals)
      - sizeAfter("<total type=\"rest\"", in: totals) + sizeAfter("<total type=\"mmap\"", in: totals)
  #else
    return nil
  #endif
}

/// The `size="…"` value of the first element of `text` that starts with `element`.
private func sizeAfter(_ element: String, in text: Substring) -> Double {
  guard let start = text.range(of: element) else { return 0 }
  let rest = text[start.upperBound...]
  guard let size = rest.range(of: "size=\"") else { return 0 }
  let digits = rest[size.upperBound...].prefix { $0.isNumber }
  return Double(digits) ?? 0
}

/// The number of threads of this process (Linux); 0 elsewhere.
func threadCount() -> Int {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
}

/// Runs this executable again with `arguments` and returns the numbers on its `RESULT` line.
func runChild(_ arguments: [String]) -> [Double]? {
  let process = Process()
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  do { try process.run() } catch { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let output = String(decoding: data, as: UTF8.self)
  guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("RESULT") }) else { return nil }
  return line.split(separator: " ").dropFirst().compactMap { Double($0) }
}

/// Submits `count` empty jobs through `submit`, the last one signalling, and returns the time until
/// that last one has run.
func drainTime(_ count: Int, _ submit: (@escaping @Sendable () -> Void) -> Void) -> Duration {
  let done = DispatchSemaphore(value: 0)
  return time {
    for _ in 0..<count - 1 { submit {} }
    submit { done.signal() }
    done.wait()
  }
}

/// A figure from per-round samples (median and spread of each side).
func figure(
  _ scenario: String, unit: String, target: Figure.Target, ours: [Double], baseline: [Double]
) -> Figure {
  Figure(
    scenario: scenario, ours: median(ours), baseline: median(baseline), unit: unit, target: target,
    oursSpread: ours.min()!...ours.max()!, baselineSpread: baseline.min()!...baseline.max()!)
}

/// `figure(_:unit:target:ours:baseline:)`, under a name `RoundResults.figure` does not shadow.
private func sampledFigure(
  _ scenario: String, unit: String, target: Figure.Target, ours: [Double], baseline: [Double]
) -> Figure {
  figure(scenario, unit: unit, target: target, ours: ours, baseline: baseline)
}

/// Per-round results of a scenario whose rounds yield several figures at once (ours, and the baseline's
/// same-shaped results), for picking one figure at a time.
struct RoundResults<Result> {
  var ours: [Result]
  var baseline: [Result]

  /// The figure `pick` selects, from `ours` (or another variant of ours, such as a mode) against the
  /// baseline.
  func figure(
    _ name: String, _ unit: String, _ target: Figure.Target, ours variant: [Result]? = nil,
    _ pick: (Result) -> Double
  ) -> Figure {
    sampledFigure(
      name, unit: unit, target: target, ours: (variant ?? ours).map(pick), baseline: baseline.map(pick))
  }
}

/// The CPU time (user + system) this process has used so far, in seconds.
func processCPUSeconds() -> Double {
  let (user, system) = processCPUSplit()
  return user + system
}

/// The user and system CPU time this process has used so far, in seconds.
func processCPUSplit() -> (user: Double, system: Double) {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return (seconds(usage.ru_utime), seconds(usage.ru_stime))
}

/// The process CPU time (user + system, every thread) `body` takes.
func cpuTime(_ body: () -> Void) -> Duration {
  let before = processCPUSeconds()
  body()
  return .seconds(processCPUSeconds() - before)
}

/// The sum a pipeline's subscriber computes, read after the pipeline completed.
final class BenchSink: @unchecked Sendable {
  // Why @unchecked Sendable: `sum` is written by one thread at a time (the sending thread, or the one
  // serial queue delivering), and read after the completion's semaphore, which orders the accesses.
  var sum = 0
}
