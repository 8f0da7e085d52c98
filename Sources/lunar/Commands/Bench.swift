import ArgumentParser
import Foundation

/// `lunar bench`: performance figures, measured as ratios within one run.
struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure Lunar's overheads (build with -c release for meaningful figures).",
    discussion: """
      Figures are nanoseconds per operation and ratios measured in the same run: compare ratios, \
      not absolute times, on a shared machine. Run with:

        swift run -c release lunar bench core
      """,
    subcommands: [Core.self]
  )

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
