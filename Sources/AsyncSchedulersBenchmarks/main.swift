import Foundation

// `swift run -c release AsyncSchedulersBenchmarks [--quick] [--filter NAME] [--json PATH]`
let arguments = CommandLine.arguments

if let index = arguments.firstIndex(of: "--child-timers"), arguments.count > index + 3 {
  runManyTimersChild(
    kind: arguments[index + 1], count: Int(arguments[index + 2]) ?? 1000,
    horizonMilliseconds: Int(arguments[index + 3]) ?? 500)
  exit(0)
}

if let index = arguments.firstIndex(of: "--child-subscriptions"), arguments.count > index + 2 {
  runSubscriptionsChild(kind: arguments[index + 1], count: Int(arguments[index + 2]) ?? 100_000)
  exit(0)
}

if let index = arguments.firstIndex(of: "--child-creation"), arguments.count > index + 2 {
  runCreationChild(kind: arguments[index + 1], count: Int(arguments[index + 2]) ?? 10_000)
  exit(0)
}

var options = RunOptions()
options.quick = arguments.contains("--quick")
let filter = arguments.firstIndex(of: "--filter").flatMap { arguments.count > $0 + 1 ? arguments[$0 + 1] : nil }
let jsonPath = arguments.firstIndex(of: "--json").flatMap { arguments.count > $0 + 1 ? arguments[$0 + 1] : nil }

let scenarios: [(name: String, run: ((RunOptions) -> [Figure])?)] = [
  ("callback", callbackThroughput),
  ("actors", sameSchedulerActorCalls),
  ("hop", crossSchedulerHop),
  ("dispose", scheduleAndDispose),
  ("timers", manyTimers),
  ("repeating", repeatingTimer),
  ("virtual", virtualTime),
  ("signal", signalThroughput),
  ("bridge", bridgeOverhead),
  ("rx", rxBridge),
  ("creation", creation),
]

print("swift-async-schedulers benchmarks (\(options.quick ? "quick" : "full") mode; ratios are ours ÷ baseline, lower is better)")
print(
  "scenario".padded(42) + " | " + "ours".padded(24)
    + " | " + "baseline".padded(24) + " | ratio  | target     | met")
var figures: [Figure] = []
for scenario in scenarios where filter.map({ scenario.name.contains($0) }) ?? true {
  guard let run = scenario.run else {
    print("\(scenario.name.padded(42)) | pending (the feature it measures is not built yet)")
    continue
  }
  for figure in run(options) {
    figures.append(figure)
    func cell(_ value: Double, _ spread: ClosedRange<Double>?) -> String {
      let text = "\(format(value)) \(figure.unit)" + (spread.map { " [\(format($0.lowerBound))–\(format($0.upperBound))]" } ?? "")
      return text.padded(24)
    }
    print(
      figure.scenario.padded(42) + " | " + cell(figure.ours, figure.oursSpread)
        + " | " + cell(figure.baseline, figure.baselineSpread) + " | "
        + format(figure.ratio).padded(6) + " | "
        + figure.targetText.padded(12) + " | " + (figure.met ? "yes" : "NO"))
    fflush(nil)
  }
}

if let jsonPath {
  let objects: [[String: Any]] = figures.map {
    [
      "scenario": $0.scenario, "ours": $0.ours, "baseline": $0.baseline, "unit": $0.unit,
      "ratio": $0.ratio.isNaN ? NSNull() : $0.ratio, "target": $0.targetValue, "met": $0.met,
    ]
  }
  do {
    let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: jsonPath))
  } catch {
    print("could not write \(jsonPath): \(error)")
    exit(1)
  }
}

extension String {
  /// The string padded with spaces to `width`, never truncated.
  func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
