import ArgumentParser
import LuaBridgeBench

extension Bench {
  /// `lunar-bench bridge`: LuaBridge against the bare Lua C API.
  struct Bridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "LuaBridge against the bare C API: a hot call, and encoding 1,000 structs.",
      discussion: """
        Calls a Lua function that increments a field of a table held in the registry, through \
        LuaBridge (with and without an instruction budget) and through the bare C API; and encodes \
        an array of 1,000 structs with LuaEncoder against hand-written pushes; each figure is \
        given as a ratio to the bare C API.
        """
    )

    @Option(help: "Calls per measurement.")
    var iterations = 200_000

    @Option(help: "Encodings of the 1,000-element array.")
    var rounds = 200

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
      let result = try BridgeBenchmark.run(callIterations: iterations, encodeRounds: rounds)
      if json {
        print(BenchJSON.encode([
          "benchmark": "bridge", "callBareNs": result.callBareNanoseconds, "callBridgeNs": result.callBridgeNanoseconds,
          "callBudgetedNs": result.callBridgeBudgetedNanoseconds, "encodeBareNs": result.encodeBareNanoseconds,
          "encodeBridgeNs": result.encodeBridgeNanoseconds, "callRatio": result.callRatio,
          "callBudgetedRatio": result.callBudgetedRatio, "encodeRatio": result.encodeRatio,
        ]))
      } else {
        print(result)
      }
    }
  }
}
