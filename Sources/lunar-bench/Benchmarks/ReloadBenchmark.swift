import ArgumentParser
import Composable
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// `lunar-bench reload [PATH]`: how long from saving a feature's script to the new reducer serving.
struct ReloadBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "reload",
    abstract: "Hot reload latency: from the file write to the new reducer serving an action.",
    discussion: """
      Works on a temporary copy of the feature. Each round rewrites its script (for the counter \
      example, `increment` gets a new step, checked by sending it; otherwise a comment changes), \
      waits for the reload, and sends an action through the store. Reported: median, 95th \
      percentile, min and max of the whole latency (including the watcher's quiet period), and \
      the median of the reload itself (load in a fresh sandbox and swap).
      """
  )

  @Argument(help: "A feature script or folder.")
  var path = "examples/counter"

  @Option(help: "Measured reloads.")
  var rounds = 50

  @Option(help: "The watcher's quiet period, in milliseconds.")
  var quiet = 25

  @Flag(help: "Print one JSON object instead of text.")
  var json = false

  @MainActor
  func run() async throws {
    let result = try await ReloadBenchmark(path: path, rounds: rounds, quiet: .milliseconds(quiet)).run()
    print(json ? result.json : result.text)
  }
}

/// The measurement behind `lunar-bench reload`.
@MainActor
struct ReloadBenchmark {
  let path: String
  let rounds: Int
  let quiet: Duration

  struct Result {
    var latencies: [Double]
    var reloads: [Double]
    var quietMilliseconds: Int
    var inotify: Bool
    var checkedBehaviour: Bool

    func percentile(_ values: [Double], _ p: Double) -> Double {
      let sorted = values.sorted()
      guard !sorted.isEmpty else { return .nan }
      return sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
    }

    var text: String {
      """
      hot reload, \(latencies.count) rounds (\(inotify ? "inotify" : "polling"), quiet period \(quietMilliseconds) ms\
      \(checkedBehaviour ? ", new behaviour checked" : ""))
        write → new reducer serving   median \(formatted(percentile(latencies, 0.5))) ms   \
      p95 \(formatted(percentile(latencies, 0.95))) ms   min \(formatted(latencies.min() ?? .nan)) ms   \
      max \(formatted(latencies.max() ?? .nan)) ms
        reload itself (load + swap)   median \(formatted(percentile(reloads, 0.5))) ms
      """
    }

    var json: String {
      BenchJSON.encode([
        "rounds": latencies.count, "medianMs": percentile(latencies, 0.5), "p95Ms": percentile(latencies, 0.95),
        "minMs": latencies.min() ?? 0, "maxMs": latencies.max() ?? 0, "reloadMedianMs": percentile(reloads, 0.5),
        "quietMs": quietMilliseconds, "inotify": inotify,
      ])
    }
  }

  func run() async throws -> Result {
    let source = try FeatureLocation(resolving: path)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-bench-reload-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.copyItem(at: source.root, to: folder)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent(source.script.lastPathComponent)
    let original = try String(contentsOf: script, encoding: .utf8)
    let stepLine = "state.count = state.count + 1"
    let checksBehaviour = original.contains(stepLine)

    let host = try LuaFeatureHost(dependencies: HostDependencies.dependencies(mode: .offline, root: folder))
    // NB: a benchmark must never write over the user's shared files (and measures no disk).
    host.shared.reset(fileStorage: .inMemory())
    // NB: only the reload's own errors matter here; they end the benchmark below.
    host.onError = { _ in }
    let feature = try host.load(FeatureLocation(resolving: script.path))
    let reducer = feature.reducer()
    let store = Store(initialState: feature.initialState) { reducer }
    let reloader = HotReloader(feature: feature, reducer: reducer, quietPeriod: quiet)
    defer { reloader.stop() }
    var events = reloader.events.makeAsyncIterator()

    var latencies: [Double] = []
    var reloads: [Double] = []
    let clock = ContinuousClock()
    let warmup = 3
    for round in 0..<(rounds + warmup) {
      let step = round + 2
      let text = checksBehaviour
        ? original.replacingOccurrences(of: stepLine, with: "state.count = state.count + \(step)")
        : original + "\n-- lunar-bench reload \(round)\n"
      let start = clock.now
      try text.write(to: script, atomically: false, encoding: .utf8)
      let watchdog = Task { @MainActor in
        try await Task.sleep(for: .seconds(10))
        reloader.stop()
      }
      guard let event = await events.next() else { throw ValidationError("no reload within 10 s (round \(round))") }
      watchdog.cancel()
      if let error = event.error { throw ValidationError("reload failed: \(error)") }
      let before = store.state.count.integerValue ?? 0
      store.send(["type": checksBehaviour ? "increment" : "__lunar_bench_reload"])
      let elapsed = clock.now - start
      if checksBehaviour, store.state.count.integerValue != before + Int64(step) {
        throw ValidationError("round \(round): increment added \(String(describing: store.state.count)) - \(before), not \(step)")
      }
      if round >= warmup {
        latencies.append(Self.milliseconds(elapsed))
        reloads.append(event.milliseconds)
      }
      // NB: a pause between rounds, so that two saves are never one burst.
      try await Task.sleep(for: quiet * 2)
    }
    return Result(
      latencies: latencies, reloads: reloads, quietMilliseconds: Int(Self.milliseconds(quiet)),
      inotify: reloader.watcher.usesInotify, checkedBehaviour: checksBehaviour
    )
  }

  static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
  }
}
