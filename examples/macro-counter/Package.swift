// swift-tools-version: 6.1
import PackageDescription

// The counter of TCA's tutorial written with macros, through Lunar's opt-in `ComposableMacros`
// product. A package of its own, so that building Lunar never builds swift-syntax: build and test
// it with `scripts/test-macros`.
let package = Package(
  name: "MacroCounter",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Lunar", path: "../..", traits: ["Macros"]),
  ],
  targets: [
    .target(
      name: "MacroCounter",
      dependencies: [.product(name: "ComposableMacros", package: "Lunar")]
    ),
    .testTarget(
      name: "MacroCounterTests",
      // NB: `ComposableTesting` brings IssueReportingTestSupport, which makes reported issues fail
      //     the tests on Linux: nothing else to link.
      dependencies: ["MacroCounter", .product(name: "ComposableTesting", package: "Lunar")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
