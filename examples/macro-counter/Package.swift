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
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
  ],
  targets: [
    .target(
      name: "MacroCounter",
      dependencies: [.product(name: "ComposableMacros", package: "Lunar")]
    ),
    .testTarget(
      name: "MacroCounterTests",
      dependencies: [
        "MacroCounter",
        .product(name: "ComposableTesting", package: "Lunar"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
