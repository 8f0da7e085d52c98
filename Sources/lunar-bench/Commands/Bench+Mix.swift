import ArgumentParser
import Foundation
import LunarBench

extension Bench {
  /// `lunar-bench mix`: the action mix, Lunar against a Redux-style store, in nanoseconds.
  struct Mix: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Each action of the mix through Lunar's Store.send against a Redux-style store in plain Lua.",
      discussion: """
        The actions come from the examples: the counter's increment, two scalar writes, a nested \
        write, a row of a lunar.forEach list of 10, 1,000 and 10,000 rows, adding and removing a \
        row, and an action with an effect. The same actions go to a Redux-style store in plain Lua \
        5.4 (new tables along the changed path, a listener, a thunk middleware), timed by the same \
        clock; each side checks at the end that its state is what the actions make. With --rodux \
        (or LUNAR_RODUX), Rodux's own Store:dispatch is timed too. For figures that do not move \
        with the machine's load, scripts/instructions counts the same mix's instructions.

          swift run -c release lunar-bench mix
        """
    )

    @Option(help: "Actions per measurement (a twentieth of them for the costly rows).")
    var iterations = 20_000

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 5

    @Option(help: "The src folder of a Rodux checkout, to time its Store:dispatch too (default: $LUNAR_RODUX).")
    var rodux: String?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func validate() throws {
      guard iterations > 0, repetitions > 0 else { throw ValidationError("--iterations and --repetitions must be above 0") }
    }

    @MainActor
    func run() async throws {
      let store = rodux.map { MixWorkload.ReduxStore.rodux(URL(fileURLWithPath: $0, isDirectory: true)) }
        ?? MixWorkload.ReduxStore.roduxFromEnvironment
      let result = try MixBenchmark(iterations: iterations, repetitions: repetitions, rodux: store).run()
      print(json ? result.json : result.table)
    }
  }
}
