import ArgumentParser
import Composable
import Foundation
import LuaBridge
import LuaBridgeBench
import LuaFeatures

extension Bench {
  /// `lunar-bench compose`: the cost of composition from Lua.
  struct Compose: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "An action for the 500th row of a 1,000-row lunar.forEach against the same action to a lone row.",
      discussion: """
        Both go through Store.send: a Lua parent (lunar.forEach("todos", Todo) and its own \
        lunar.reduce) receiving { type = "todos", id = 500, action = { type = "toggle" } }, and the \
        Todo feature alone receiving { type = "toggle" }: the ratio is what composition costs a row.
        """
    )

    @Option(help: "Actions per measurement.")
    var iterations = 200_000

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 5

    @Option(help: "Rows in the parent's list.")
    var rows = 1_000

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @MainActor
    func run() async throws {
      let result = try ComposeBenchmark(iterations: iterations, repetitions: repetitions, rows: rows).run()
      print(json ? result.json : result.table)
    }
  }
}

/// The composition figure: an action addressed to the middle row of a long `lunar.forEach`, Lua parent
/// and Lua child, against the same action sent to the child feature on its own.
@MainActor
struct ComposeBenchmark {
  let iterations: Int
  let repetitions: Int
  let rows: Int

  struct Result {
    var lone: Double
    var composed: Double
    var rows: Int
    var iterations: Int

    var ratio: Double { composed / lone }

    var table: String {
      [
        "compose: one action through Store.send (\(iterations) actions, best of runs)",
        "  lone Todo feature, { type = \"toggle\" }            \(formatted(lone)) ns/action",
        "  row \(rows / 2) of \(rows) in lunar.forEach, wrapped action   \(formatted(composed)) ns/action   \(formatted(ratio))× lone",
      ].joined(separator: "\n")
    }

    var json: String {
      BenchJSON.encode([
        "benchmark": "compose", "iterations": iterations, "rows": rows, "loneNs": lone,
        "composedNs": composed, "ratio": ratio,
      ])
    }
  }

  func run() throws -> Result {
    // NB: no time limit: the large state is built by one long call of the benchmark's own code, and
    //     a loaded machine must not fail the run.
    let host = try LuaFeatureHost(limits: .init(instructionsPerCall: 1_000_000, timePerCall: nil))
    var errors = 0
    host.onError = { error in
      errors += 1
      if errors == 1 { FileHandle.standardError.write(Data("lunar-bench compose: \(error)\n".utf8)) }
    }
    let todo = try host.load(source: BenchScripts.todoFeature, chunkName: "todo.lua")
    let list = try host.load(
      source: BenchScripts.todoList(rows: rows),
      chunkName: "todos.lua"
    )
    let lone = Store(initialState: LuaState(["id": .integer(Int64(rows / 2)), "title": "row", "done": false])) {
      todo.reducer()
    }
    let composed = Store(initialState: list.initialState) { list.reducer() }
    let toggle: LuaValue = ["type": "toggle"]
    let wrapped: LuaValue = ["type": "todos", "id": .integer(Int64(rows / 2)), "action": toggle]
    // NB: the two are measured in turns, so that a busy moment of the machine hits both alike.
    var best = (lone: Double.infinity, composed: Double.infinity)
    for _ in 0..<max(1, repetitions) {
      best.lone = min(best.lone, measure(lone, action: toggle))
      best.composed = min(best.composed, measure(composed, action: wrapped))
    }
    if errors > 0 { throw ValidationError("the benchmark's features failed \(errors) times") }
    return Result(lone: best.lone, composed: best.composed, rows: rows, iterations: iterations)
  }

  private func measure(_ store: Store<LuaState, LuaValue>, action: LuaValue) -> Double {
    store.send(action)
    return bestNanosecondsPerOperation(operations: iterations, repetitions: 1) {
      for _ in 0..<iterations {
        blackHole(store.send(action))
      }
    }
  }
}
