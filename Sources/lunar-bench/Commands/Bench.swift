import ArgumentParser
import Foundation

/// `lunar-bench`: performance figures, measured as ratios within one run. An executable of its own:
/// the shipped `lunar` holds no benchmark.
@main
struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lunar-bench",
    abstract: "Measure Lunar's overheads (build with -c release for meaningful figures).",
    discussion: """
      Figures are nanoseconds per operation and ratios measured in the same run: compare ratios, \
      not absolute times, on a shared machine. Run with:

        swift run -c release lunar-bench [PATH]   a feature's ns/action (given PATH), then `lua`
        swift run -c release lunar-bench core     Store.send against a bare reducer call
        swift run -c release lunar-bench lua      a Lua reducer through the store, the bare C API,
                                                  a Swift reducer and a Redux store in plain Lua
        swift run -c release lunar-bench feature examples/counter
                                                  ns/action for a feature's scripted action mix
        swift run -c release lunar-bench mix      the action mix: Lunar against the same actions
                                                  in a Redux-style store in plain Lua
        swift run -c release lunar-bench bridge   LuaBridge calls and encoding against the C API
        swift run -c release lunar-bench compose  a row of a 1,000-row lunar.forEach against
                                                  the same row's feature alone
        swift run -c release lunar-bench reload   hot reload latency, from the write to the new
                                                  reducer serving
        swift run -c release lunar-bench plugins  memory per plugin VM and per store; ns/action
                                                  over one store, 10,000 stores and 1,000 VMs

      For figures that do not move with the machine's load, scripts/instructions counts the \
      instructions per action of an action mix (Lunar against the same actions in a Redux-style \
      store in plain Lua) with callgrind.
      """,
    subcommands: [All.self, Core.self, Lua.self, Feature.self, Mix.self, Bridge.self, ReloadBench.self, Compose.self, Plugins.self],
    defaultSubcommand: All.self
  )

  struct Lua: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "A Lua reducer through Store.send against the bare C API, a Swift reducer and plain Lua."
    )

    @Option(help: "Actions per measurement.")
    var iterations = 300_000

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 5

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @MainActor
    func run() async throws {
      let result = try LuaFeatureBenchmark(iterations: iterations, repetitions: repetitions).run()
      print(json ? result.json : result.table)
    }
  }

  struct Feature: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "ns/action for a feature, sending a scripted mix of actions.",
      discussion: """
        The actions are lines as typed in `lunar run` (increment, add title=milk, { … }), read from \
        --actions (default: bench.txt next to the feature). The mix is sent over and over; effects \
        are started but not awaited, and dependencies are the offline ones.
        """
    )

    @Argument(help: "A feature script or folder.")
    var path: String

    @Option(help: "A file of actions, one per line.")
    var actions: String?

    @Option(help: "Actions per measurement.")
    var iterations = 100_000

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 5

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @MainActor
    func run() async throws {
      let result = try FeatureMixBenchmark(path: path, actionsFile: actions, iterations: iterations, repetitions: repetitions).run()
      print(json ? result.json : result.text)
    }
  }

  struct Core: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Store.send of a no-effect action against a bare call of the same reducer."
    )

    @Option(help: "Actions per measurement.")
    var iterations = 5_000_000

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 5

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @MainActor
    func run() async throws {
      let result = CoreBenchmark(iterations: iterations, repetitions: repetitions).run()
      if json {
        print(result.json)
      } else {
        print(result.table)
      }
    }
  }
}
