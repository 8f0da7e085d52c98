import Foundation
import Testing

/// The shipped `lunar` carries no benchmark: the benchmarks and the profiler's workloads are
/// executables of their own (`lunar-bench`, `lunar-workload`), and `lunar` neither depends on their
/// code nor holds it.
struct BenchmarksStayOutTests {
  /// Targets whose code measures rather than serves: benchmarks and the profiler's workloads.
  static func isBenchmark(_ target: String) -> Bool {
    target.contains("Bench") || target.hasPrefix("lunar-bench") || target.hasSuffix("workload")
  }

  /// The package's targets and the local targets each depends on, read by SwiftPM from Package.swift.
  static func targetDependencies() throws -> [String: [String]] {
    // NB: a scratch folder of its own, so that the build folder the tests run from stays unlocked.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-manifest-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
    process.currentDirectoryURL = Lunar.packageRoot
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "swift package dump-package failed")
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let targets = try #require(manifest["targets"] as? [[String: Any]])
    var dependencies: [String: [String]] = [:]
    for target in targets {
      let name = try #require(target["name"] as? String)
      // NB: a local dependency is `{"byName": [name, condition]}` or `{"target": [name, condition]}`;
      //     products of other packages are `{"product": …}`.
      dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
        ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
      }
    }
    return dependencies
  }

  @Test func theShippedLunarDependsOnNoBenchmarkTarget() throws {
    let dependencies = try Self.targetDependencies()
    #expect(dependencies.keys.contains("lunar-bench") && dependencies.keys.contains("lunar-workload"))
    var reached: Set<String> = []
    var pending = ["lunar"]
    while let target = pending.popLast() {
      for dependency in dependencies[target] ?? [] where reached.insert(dependency).inserted {
        pending.append(dependency)
      }
    }
    #expect(reached.contains("LunarPlugins"), "the walk follows lunar's own dependencies: \(reached.sorted())")
    #expect(reached.filter(Self.isBenchmark).isEmpty, "lunar depends on \(reached.filter(Self.isBenchmark).sorted())")
  }

  @Test func theShippedLunarBinaryHoldsNoBenchmarkCode() async throws {
    let lunar = try await Lunar.binary()
    let bench = lunar.deletingLastPathComponent().appendingPathComponent("lunar-bench")
    // NB: names of the benchmarks' types and C functions, as their symbols spell them.
    let names = ["LuaFeatureBenchmark", "PluginScaleBenchmark", "JournalFloorBaseline", "lunar_floor_hook", "lunar_bench_heap_bytes"]
    let benchBinary = try Data(contentsOf: bench)
    for name in names {
      #expect(benchBinary.range(of: Data(name.utf8)) != nil, "lunar-bench holds \(name): the search can find it")
    }
    let lunarBinary = try Data(contentsOf: lunar)
    for name in names {
      #expect(lunarBinary.range(of: Data(name.utf8)) == nil, "lunar holds \(name)")
    }
  }
}
