// swift-tools-version: 6.1
import PackageDescription

// Library targets use no Swift macros: macro products pull in swift-syntax, which would add minutes
// to every clean build (see DESIGN.md, "Build"). The `Macros` trait (off by default) lets
// `ComposableMacros` re-export `@CasePathable` and `@DependencyClient` for those who want them.
let package = Package(
  name: "Lunar",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "Composable", targets: ["Composable"]),
    .library(name: "ComposableMacros", targets: ["ComposableMacros"]),
    // NB: with `ComposableTestingSupport`, so that a test target adding this one product gets
    //     failing tests for reported issues on Linux (IssueReportingTestSupport), while the
    //     `ComposableTesting` target itself, which `lunar test` runs outside any test, links no
    //     testing framework.
    .library(name: "ComposableTesting", targets: ["ComposableTesting", "ComposableTestingSupport"]),
    .library(name: "LuaBridge", targets: ["LuaBridge"]),
    .library(name: "LuaFeatures", targets: ["LuaFeatures"]),
    .library(name: "LunarPlugins", targets: ["LunarPlugins"]),
    .executable(name: "lunar", targets: ["lunar"]),
  ],
  traits: [
    .trait(
      name: "Macros",
      description: "ComposableMacros re-exports @CasePathable and @DependencyClient (builds swift-syntax)."
    )
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Foundation", "Clocks"]),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
    ),
    // The prompt's line editing and history (lunar run and lunar host at a terminal). macOS ships
    // libedit with the system; Debian's is libedit-dev (scripts/bootstrap installs it).
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
    ),
    // The live HTTP transport (deps.http over http:// and https://). Foundation's networking on
    // Linux is built on libcurl already; Debian's headers are libcurl4-openssl-dev (scripts/bootstrap
    // installs it), macOS ships libcurl with the system.
    .systemLibrary(
      name: "CCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
    ),
    .target(
      name: "CLuaShim",
      dependencies: ["CLua"]
    ),
    // The reducer transaction's C half (state proxies, journal, the reducer call): LuaFeatures'
    // own, on the generic binding's C extension entry.
    .target(
      name: "CLuaTransaction",
      dependencies: ["CLua", "CLuaShim"]
    ),
    .target(
      name: "LuaBridge",
      dependencies: ["CLua", "CLuaShim"],
      exclude: ["Lua"],
      plugins: ["EmbedLua"]
    ),
    // The host's own Lua is real `.lua` files in a target's `Lua/` folder, checked by Lua and
    // embedded in the binary at build time (see Plugins/EmbedLua).
    .executableTarget(
      name: "embed-lua",
      dependencies: ["CLua"]
    ),
    .plugin(
      name: "EmbedLua",
      capability: .buildTool(),
      dependencies: ["embed-lua"]
    ),
    // Files served by a web page (HTML, CSS, JavaScript), embedded in the binary at build time (see
    // Plugins/EmbedAssets), so the page works offline and needs nothing beside the executable.
    .executableTarget(
      name: "embed-assets"
    ),
    .plugin(
      name: "EmbedAssets",
      capability: .buildTool(),
      dependencies: ["embed-assets"]
    ),
    .target(
      name: "CLuaBench",
      dependencies: ["CLua"]
    ),
    .target(
      name: "LuaBridgeBench",
      dependencies: ["LuaBridge", "CLua", "CLuaShim", "CLuaBench"]
    ),
    .target(
      name: "Composable",
      dependencies: [
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "ComposableMacros",
      dependencies: [
        "Composable",
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "CasePaths", package: "swift-case-paths", condition: .when(traits: ["Macros"])),
        .product(name: "DependenciesMacros", package: "swift-dependencies", condition: .when(traits: ["Macros"])),
      ]
    ),
    .target(
      name: "ComposableTesting",
      dependencies: [
        "Composable",
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // What makes issues reported in a test process fail the test (Swift Testing and XCTest),
    // shipped in the ComposableTesting product.
    .target(
      name: "ComposableTestingSupport",
      dependencies: [
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay")
      ]
    ),
    .target(
      name: "LuaFeatures",
      dependencies: [
        "CCurl",
        "CLua",
        "CLuaTransaction",
        "Composable",
        "ComposableTesting",
        "LuaBridge",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      exclude: ["Lua"],
      plugins: ["EmbedLua"]
    ),
    // Plugins: manifests, grants, a VM per plugin, lifecycle and accounting (DESIGN.md, "Plugins").
    .target(
      name: "LunarPlugins",
      dependencies: [
        "LuaFeatures",
        "Composable",
        "LuaBridge",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // The devtools page of a session: a small HTTP and WebSocket server on 127.0.0.1 (FlyingFox: no
    // dependencies of its own; see docs/devtools.md) and the page, embedded from `Page/`.
    .target(
      name: "LunarDevtools",
      dependencies: [
        "LuaBridge",
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      exclude: ["Page"],
      plugins: ["EmbedAssets"]
    ),
    // A Swift app made scriptable by Lua plugins: what docs/plugins-swift.md shows, run by a test.
    .executableTarget(
      name: "lunar-embed",
      dependencies: ["LunarPlugins"]
    ),
    // Benchmarks: their own targets, which the shipped `lunar` does not link. `lunar-bench` is a
    // plain executable over swift-argument-parser (already built for `lunar`) rather than
    // ordo-one/benchmark, whose packages every clean build would add; stable figures come from
    // callgrind's instruction counts (`lunar-workload`, scripts/instructions), which need no access
    // to the kernel's performance counters.
    .target(
      name: "LunarBench",
      dependencies: ["LuaFeatures", "Composable", "LuaBridge", "CLua"],
      exclude: ["Lua"],
      plugins: ["EmbedLua"]
    ),
    // The reducer transaction's workloads (instructions per action, memory per row, reload time),
    // run by scripts/transaction-figures.
    .executableTarget(
      name: "lunar-transaction-workload",
      dependencies: ["LuaFeatures", "Composable", "LuaBridge"]
    ),
    .executableTarget(
      name: "lunar-workload",
      dependencies: ["LunarBench", "LuaFeatures", "Composable", "LuaBridge", "LuaBridgeBench"]
    ),
    .executableTarget(
      name: "lunar-bench",
      dependencies: [
        "LunarBench",
        "LunarHostSupport",
        "LunarPlugins",
        "LuaFeatures",
        "Composable",
        "LuaBridge",
        "LuaBridgeBench",
        "CLuaBench",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // What the `lunar` host and its benchmarks share: the dependencies the host offers a feature,
    // and the reading of an action typed on a line.
    .target(
      name: "LunarHostSupport",
      dependencies: [
        "LuaFeatures",
        "LuaBridge",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "lunar",
      dependencies: [
        "LunarPlugins",
        "LunarDevtools",
        "LuaFeatures",
        "Composable",
        "LuaBridge",
        "LunarHostSupport",
        "CEditLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    // Fuzz targets for every parser of untrusted input (action lines, JSON, Lua values, manifests,
    // recordings, HTTP recordings, devtools messages): a library the corpus tests replay, and an
    // executable that scripts/fuzz links with libFuzzer. The shipped `lunar` links neither.
    .target(name: "CLunarFuzz"),
    .target(
      name: "LunarFuzzing",
      dependencies: ["LuaBridge", "LuaFeatures", "LunarHostSupport", "LunarPlugins", "LunarDevtools"]
    ),
    .executableTarget(
      name: "lunar-fuzz",
      dependencies: ["LunarFuzzing", "CLunarFuzz"]
    ),
    // NB: helpers the test targets share; no product links it.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "ComposableTests",
      dependencies: [
        "Composable",
        "ComposableTesting",
        .product(name: "CasePathsCore", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        "ComposableTestingSupport",
      ]
    ),
    .testTarget(
      name: "LuaFeaturesTests",
      dependencies: [
        "LuaFeatures",
        "LuaBridge",
        "Composable",
        "ComposableTesting",
        "TestSupport",
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        "ComposableTestingSupport",
      ],
      exclude: ["Fixtures", "Hostile"]
    ),
    .testTarget(
      name: "LunarPluginsTests",
      dependencies: [
        "LunarPlugins",
        "LuaFeatures",
        "LuaBridge",
        "Composable",
        "ComposableTesting",
        .product(name: "Dependencies", package: "swift-dependencies"),
        "ComposableTestingSupport",
      ],
      exclude: ["Hostile"]
    ),
    .testTarget(
      name: "LunarDevtoolsTests",
      dependencies: ["LunarDevtools", "LuaBridge", .product(name: "FlyingSocks", package: "FlyingFox")],
      resources: [.copy("Hostile")]
    ),
    .testTarget(
      name: "LuaBridgeTests",
      dependencies: [
        "LuaBridge",
        "LuaBridgeBench",
        "CLua",
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ],
      resources: [.copy("Hostile"), .copy("Fixtures")]
    ),
    .testTarget(
      name: "LunarFuzzingTests",
      dependencies: ["LunarFuzzing"],
      exclude: ["Corpus", "Dictionaries"]
    ),
    .testTarget(
      name: "LunarCLITests",
      dependencies: ["lunar", "lunar-embed", "lunar-bench", "lunar-workload", "TestSupport"],
      exclude: ["Hostile", "Fixtures", "PTY", "Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
