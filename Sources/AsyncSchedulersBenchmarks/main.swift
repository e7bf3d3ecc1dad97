import Foundation

// `swift run -c release AsyncSchedulersBenchmarks [--quick] [--filter NAME] [--runs N] [--json PATH]`
//
// `--runs 5` runs the whole benchmark five times in a row, prints each run's table, then a summary:
// for every row, the median over the runs of the value its target judges (the ratio, or our figure
// for an absolute target), with the spread [min–max] and every run's value. A target counts as met
// when that median meets it.
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

if let index = arguments.firstIndex(of: "--child-energy"), arguments.count > index + 3 {
  runEnergyChild(
    workload: arguments[index + 1], side: arguments[index + 2], seconds: Double(arguments[index + 3]) ?? 2,
    cold: arguments.count > index + 4 && arguments[index + 4] == "cold")
  exit(0)
}

if let index = arguments.firstIndex(of: "--child-main-actor-sleepers"), arguments.count > index + 1 {
  runMainActorSleepersChild(count: Int(arguments[index + 1]) ?? 10_000)
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
  ("exploring", exploringOrderings),
  ("signal", signalThroughput),
  ("bridge", bridgeOverhead),
  ("rx", rxBridge),
  ("observable", rxObservable),
  ("pipelines", rxPipelines),
  ("creation", creation),
  ("energy", energy),
]
let runs = arguments.firstIndex(of: "--runs").flatMap { arguments.count > $0 + 1 ? Int(arguments[$0 + 1]) : nil } ?? 1

var figures: [Figure] = []
/// Every run's figures, by row, in the order rows first appeared.
var byRow: [(scenario: String, figures: [Figure])] = []
for run in 1...max(runs, 1) {
  print(
    "swift-async-schedulers benchmarks (\(options.quick ? "quick" : "full") mode\(runs > 1 ? ", run \(run) of \(runs)" : "");"
      + " ratios are ours ÷ baseline, lower is better)")
  print(
    "scenario".padded(42) + " | " + "ours".padded(24)
      + " | " + "baseline".padded(24) + " | ratio  | target     | met")
  for scenario in scenarios where filter.map({ scenario.name.contains($0) }) ?? true {
    guard let run = scenario.run else {
      print("\(scenario.name.padded(42)) | pending (the feature it measures is not built yet)")
      continue
    }
    for figure in run(options) {
      figures.append(figure)
      if let index = byRow.firstIndex(where: { $0.scenario == figure.scenario }) {
        byRow[index].figures.append(figure)
      } else {
        byRow.append((figure.scenario, [figure]))
      }
      func cell(_ value: Double, _ spread: ClosedRange<Double>?) -> String {
        let text =
          "\(format(value)) \(figure.unit)"
          + (spread.map { " [\(format($0.lowerBound))–\(format($0.upperBound))]" } ?? "")
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
}

if runs > 1 {
  print("")
  print("Summary of \(runs) runs: the median of each run's judged value (ratio, or ours for an absolute target)")
  print("scenario".padded(48) + " | median [min–max]".padded(26) + " | target     | met | every run")
  for row in byRow {
    let values = row.figures.map(\.judged)
    var summary = row.figures[0]
    let middle = median(values)
    // Judge the median as the row's own target would.
    switch summary.target {
    case .ratio, .info: summary.ours = middle * summary.baseline
    case .absolute, .exactly: summary.ours = middle
    }
    let unit: String = {
      if case .ratio = summary.target { return "×" }
      if case .info = summary.target { return "×" }
      return " " + summary.unit
    }()
    let spread = "\(format(middle))\(unit) [\(format(values.min()!))–\(format(values.max()!))]"
    print(
      row.scenario.padded(48) + " | " + spread.padded(24) + " | " + summary.targetText.padded(10) + " | "
        + (summary.met ? "yes" : "NO ") + " | " + values.map(format).joined(separator: ", "))
  }
}

if let jsonPath {
  // JSON has no NaN or infinity: a figure that is not a finite number (the ratio of a row whose baseline
  // is zero, such as a growth row) is written as null.
  func number(_ value: Double) -> Any { value.isFinite ? value : NSNull() }
  let objects: [[String: Any]] = figures.map {
    [
      "scenario": $0.scenario, "ours": number($0.ours), "baseline": number($0.baseline), "unit": $0.unit,
      "ratio": number($0.ratio), "target": number($0.targetValue), "met": $0.met,
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
