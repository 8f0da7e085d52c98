import Composable
import Foundation
import LuaBridge
import LuaFeatures
import LunarBench

/// The action mix in nanoseconds: each action of the mix through Lunar's `Store.send`, against the
/// same action dispatched to a Redux-style store in plain Lua (and to Rodux's, given its source),
/// timed by the same clock around the same number of actions.
@MainActor
struct MixBenchmark {
  let iterations: Int
  let repetitions: Int
  let rodux: MixWorkload.ReduxStore?

  struct Row {
    var workload: MixWorkload
    var actions: Int
    var lunar: Double
    var redux: Double
    var rodux: Double?
  }

  struct Result {
    var rows: [Row]
    var repetitions: Int

    var table: String {
      func cell(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
      }
      var header = "action".padding(toLength: 36, withPad: " ", startingAt: 0) + cell("Lunar", 12) + cell("Redux-style", 14) + cell("ratio", 9)
      if rows.contains(where: { $0.rodux != nil }) { header += cell("Rodux", 12) + cell("ratio", 9) }
      var lines = ["mix: ns per action, best of \(repetitions) runs (compare ratios: Lunar / the other)", header]
      for row in rows {
        var line = row.workload.label.padding(toLength: 36, withPad: " ", startingAt: 0)
          + cell(formatted(row.lunar), 12) + cell(formatted(row.redux), 14) + cell(formatted(row.lunar / row.redux) + "x", 9)
        if let rodux = row.rodux { line += cell(formatted(rodux), 12) + cell(formatted(row.lunar / rodux) + "x", 9) }
        lines.append(line)
      }
      return lines.joined(separator: "\n")
    }

    var json: String {
      BenchJSON.encode([
        "benchmark": "mix", "repetitions": repetitions,
        "actions": rows.map { row -> [String: Any] in
          var object: [String: Any] = [
            "action": row.workload.rawValue, "label": row.workload.label, "iterations": row.actions,
            "lunarNs": row.lunar, "reduxNs": row.redux, "ratioToRedux": row.lunar / row.redux,
          ]
          if let rodux = row.rodux {
            object["roduxNs"] = rodux
            object["ratioToRodux"] = row.lunar / rodux
          }
          return object
        },
      ])
    }
  }

  func run() throws -> Result {
    var rows: [Row] = []
    for workload in MixWorkload.allCases {
      let count = workload.isCostly ? max(1, iterations / 20) : iterations
      let store = try workload.makeLunarStore()
      let redux = try ReduxMixStore(workload)
      let roduxStore = try rodux.map { try ReduxMixStore(workload, store: $0) }
      var sent = 0
      var best = (lunar: Double.infinity, redux: Double.infinity, rodux: Double.infinity)
      // NB: the sides in turns, so that a busy moment of the machine hits all of them alike.
      for _ in 0..<max(1, repetitions) {
        best.lunar = min(best.lunar, try time(count) { workload.send(sent + 1...sent + count, to: store) })
        sent += count
        best.redux = min(best.redux, try time(count) { try redux.dispatch(count) })
        if let roduxStore { best.rodux = min(best.rodux, try time(count) { try roduxStore.dispatch(count) }) }
      }
      try workload.check(store.state.value, times: sent)
      try redux.check()
      try roduxStore?.check()
      rows.append(Row(
        workload: workload, actions: count, lunar: best.lunar, redux: best.redux,
        rodux: roduxStore == nil ? nil : best.rodux))
    }
    return Result(rows: rows, repetitions: repetitions)
  }

  private func time(_ count: Int, _ body: () throws -> Void) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
  }
}
