// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-async-schedulers",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "AsyncSchedulers", targets: ["AsyncSchedulers"]),
    .library(name: "AsyncSchedulersTesting", targets: ["AsyncSchedulersTesting"]),
    .library(name: "AsyncSignals", targets: ["AsyncSignals"]),
    .library(name: "AsyncSchedulersBridge", targets: ["AsyncSchedulersBridge"]),
    .library(name: "AsyncSchedulersRxBridge", targets: ["AsyncSchedulersRxBridge"]),
    .library(name: "AsyncSchedulersBridgeTesting", targets: ["AsyncSchedulersBridgeTesting"]),
    .library(name: "AsyncSchedulersRxBridgeTesting", targets: ["AsyncSchedulersRxBridgeTesting"]),
  ],
  targets: [
    .target(name: "AsyncSchedulers"),
    .target(name: "AsyncSchedulersTesting", dependencies: ["AsyncSchedulers"]),
    .target(name: "AsyncSignals", dependencies: ["AsyncSchedulers"]),
    .target(name: "AsyncSchedulersBridge", dependencies: ["AsyncSchedulers", "AsyncSignals"]),
    // RACTestScheduler: apart from the bridge, so that apps importing the bridge link no test framework.
    .target(
      name: "AsyncSchedulersBridgeTesting",
      dependencies: ["AsyncSchedulersBridge", "AsyncSchedulers", "AsyncSchedulersTesting"]),
    .target(name: "AsyncSchedulersRxBridge", dependencies: ["AsyncSchedulers", "AsyncSignals"]),
    // RxTest's counterpart: apart from the bridge, so that apps importing the bridge link no test framework.
    .target(
      name: "AsyncSchedulersRxBridgeTesting",
      dependencies: ["AsyncSchedulersRxBridge", "AsyncSchedulers", "AsyncSchedulersTesting"]),
    .executableTarget(
      name: "AsyncSchedulersExamples",
      dependencies: [
        "AsyncSchedulers", "AsyncSchedulersTesting", "AsyncSignals", "AsyncSchedulersBridge", "AsyncSchedulersRxBridge",
        "AsyncSchedulersBridgeTesting", "AsyncSchedulersRxBridgeTesting",
      ]),
    .executableTarget(
      name: "AsyncSchedulersBenchmarks",
      dependencies: [
        "AsyncSchedulers", "AsyncSchedulersTesting", "AsyncSignals", "AsyncSchedulersBridge", "AsyncSchedulersRxBridge",
      ]),
    // App code as users write it, importing nothing of this package, for the virtual-time tests.
    .target(name: "AppPatterns", path: "Tests/AppPatterns"),
    .target(
      name: "AsyncSchedulersTestSupport", dependencies: ["AsyncSchedulers"],
      path: "Tests/AsyncSchedulersTestSupport"),
    .testTarget(
      name: "AsyncSchedulersTests",
      dependencies: ["AsyncSchedulers", "AsyncSchedulersTesting", "AsyncSchedulersTestSupport"]),
    .testTarget(
      name: "AsyncSchedulersTestingTests",
      dependencies: ["AsyncSchedulersTesting", "AsyncSchedulersTestSupport", "AppPatterns"]),
    .testTarget(
      name: "AsyncSignalsTests",
      dependencies: ["AsyncSignals", "AsyncSchedulers", "AsyncSchedulersTesting", "AsyncSchedulersTestSupport"]),
    .testTarget(
      name: "AsyncSchedulersRxBridgeTests",
      dependencies: [
        "AsyncSchedulersRxBridge", "AsyncSchedulers", "AsyncSchedulersTesting", "AsyncSchedulersTestSupport",
      ]),
    // RxSwift code with the import swapped: only the Rx bridge, Swift 5 mode (as Rx-era code is).
    .testTarget(
      name: "AsyncSchedulersRxBridgeSwapTests",
      dependencies: ["AsyncSchedulersRxBridge", "AsyncSchedulersRxBridgeTesting"],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    // RxSwift app code written in Swift 6 language mode, the import swapped: only the Rx bridge.
    .testTarget(
      name: "AsyncSchedulersRxBridgeSwift6SwapTests",
      dependencies: ["AsyncSchedulersRxBridge", "AsyncSchedulersRxBridgeTesting"]),
    // ReactiveObjC-era Swift with the import swapped: only the RAC bridge, Swift 5 mode.
    .testTarget(
      name: "AsyncSchedulersBridgeSwapTests",
      dependencies: ["AsyncSchedulersBridge", "AsyncSchedulersBridgeTesting"],
      swiftSettings: [.swiftLanguageMode(.v5)]),
    // A team on XCTest: the test doubles' failures fail XCTest tests. Only what such a team imports.
    .testTarget(
      name: "AsyncSchedulersXCTestTests",
      dependencies: ["AsyncSchedulers", "AsyncSchedulersTesting", "AppPatterns"]),
    .testTarget(
      name: "AsyncSchedulersBridgeTests",
      dependencies: [
        "AsyncSchedulersBridge", "AsyncSchedulersBridgeTesting", "AsyncSchedulersTesting", "AsyncSignals",
        "AsyncSchedulersTestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// The swap targets hold code as apps write it (`SchedulerType` as a type, without `any`), so they keep
// the language mode's defaults.
for target in package.targets where !target.name.hasSuffix("SwapTests") {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny")
    ]
}
