import ArgumentParser
import Foundation

extension Bench {
  /// `lunar-bench [PATH]`: a feature's figure, then the built-in comparison of `lunar-bench lua`.
  struct All: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "all",
      abstract: "A feature's ns/action (given PATH), then a Lua reducer against the bare C API and Swift.",
      discussion: """
        What `lunar-bench [PATH]` runs. With PATH, the feature's scripted action mix first (as \
        `lunar-bench feature PATH`); then, always, the built-in comparison (as `lunar-bench lua`): \
        a Lua reducer through Store.send, the same reducer through the bare Lua C API, an \
        equivalent Swift reducer and a Redux store in plain Lua, as ratios measured in one run.

          swift run -c release lunar-bench examples/counter
        """
    )

    @Argument(help: "A feature script or folder (optional).")
    var path: String?

    @Option(help: "A file of actions, one per line (default: bench.txt next to the feature).")
    var actions: String?

    @Option(help: "Actions per measurement (default: 100,000 for the feature, 300,000 for the comparison).")
    var iterations: Int?

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 5

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @MainActor
    func run() async throws {
      let feature = try path.map { path in
        try FeatureMixBenchmark(
          path: path, actionsFile: actions, iterations: iterations ?? 100_000, repetitions: repetitions
        ).run()
      }
      let lua = try LuaFeatureBenchmark(iterations: iterations ?? 300_000, repetitions: repetitions).run()
      if json {
        // NB: both results are JSON objects already.
        print("{\"feature\":\(feature?.json ?? "null"),\"lua\":\(lua.json)}")
      } else {
        if let feature { print(feature.text + "\n") }
        print(lua.table)
      }
    }
  }
}
