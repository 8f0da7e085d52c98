import Composable
import Foundation
import LuaBridge
import LuaBridgeBench
import LuaFeatures
import LunarBench

/// The Lua figures, in one run: a no-effect action through `Store.send` into a Lua reducer,
/// against the same reducer called through the bare C API, an equivalent Swift reducer, the same
/// action on a state of 10,000 items, and a Redux-style store in plain Lua run by `lua5.4`; and the
/// journal floor (``JournalFloorBaseline``): the least any host with Lunar's guarantees pays.
@MainActor
struct LuaFeatureBenchmark {
  let iterations: Int
  let repetitions: Int

  struct Result {
    var bare: Double
    var floor: Double
    var lunar: Double
    /// Lunar's CPU time per action, for the comparison with the Redux script (which counts CPU time).
    var lunarCPU: Double
    var lunarLarge: Double
    var swift: Double
    var redux: Double?
    var iterations: Int

    var table: String {
      var lines = [
        "lua: a no-effect action (\(iterations) actions, best of runs)",
        "  bare C API, state in registry   \(formatted(bare)) ns/action",
        "  journal floor, C only           \(formatted(floor)) ns/action   \(formatted(floor / bare))× bare   (per-call proxy + journal + budget hook, nothing else)",
        "  Lunar Store.send, 10 items      \(formatted(lunar)) ns/action   \(formatted(lunar / bare))× bare",
        "  Lunar Store.send, 10,000 items  \(formatted(lunarLarge)) ns/action   \(formatted(lunarLarge / lunar))× 10 items",
        "  Swift reducer, Store.send       \(formatted(swift)) ns/action   Lua is \(formatted(lunar / swift))× Swift",
      ]
      if let redux {
        lines.append("  Redux store in plain lua5.4     \(formatted(redux)) ns/action   Lunar is \(formatted(redux / lunarCPU))× faster   (CPU time, both sides)")
      } else {
        lines.append("  Redux store in plain lua5.4     (lua5.4 not installed: apt-get install lua5.4 to compare)")
      }
      return lines.joined(separator: "\n")
    }

    var json: String {
      BenchJSON.encode([
        "benchmark": "lua", "iterations": iterations, "bareNs": bare, "floorNs": floor, "lunarNs": lunar,
        "lunarLargeNs": lunarLarge, "swiftNs": swift, "reduxNs": redux.map { $0 as Any } ?? NSNull(),
        "lunarCPUNs": lunarCPU, "ratioToBare": lunar / bare, "ratioFloorToBare": floor / bare,
        "ratioLargeToSmall": lunarLarge / lunar,
        // NB: how many times faster than the Redux store Lunar is, in CPU time (above 1: faster).
        "speedupOverRedux": redux.map { $0 / lunarCPU as Any } ?? NSNull(),
      ])
    }
  }

  func run() throws -> Result {
    let bare = try BareReducerBaseline(source: BenchScripts.counterReducer, items: 10)
    let floor = try JournalFloorBaseline(source: BenchScripts.counterReducer, items: 10)
    let lunar = try lunarStore(items: 10)
    let lunarLarge = try lunarStore(items: 10_000)
    let swift = Store(initialState: BenchCounter.State()) { BenchCounter() }
    let action: LuaValue = ["type": "increment"]
    let redux = ReduxBaseline()
    // NB: measured in turns, one repetition of each per round, so that a busy moment of the shared
    //     machine hits all of them alike and the ratios hold within the run.
    var best = (
      bare: Double.infinity, floor: Double.infinity, lunar: Double.infinity, lunarCPU: Double.infinity,
      large: Double.infinity, swift: Double.infinity, redux: Double.infinity
    )
    for _ in 0..<max(1, repetitions) {
      best.bare = min(best.bare, bare.measure(iterations: iterations, repetitions: 1))
      best.floor = min(best.floor, floor.measure(iterations: iterations, repetitions: 1))
      let figure = measure(lunar, action)
      best.lunar = min(best.lunar, figure.wall)
      best.lunarCPU = min(best.lunarCPU, figure.cpu)
      best.large = min(best.large, measure(lunarLarge, action).wall)
      best.swift = min(best.swift, bestNanosecondsPerOperation(operations: iterations, repetitions: 1) {
        for index in 0..<iterations {
          blackHole(swift.send(index & 1 == 0 ? .increment : .decrement))
        }
      })
      if let figure = redux?.measure(iterations: iterations) { best.redux = min(best.redux, figure) }
    }
    return Result(
      bare: best.bare, floor: best.floor, lunar: best.lunar, lunarCPU: best.lunarCPU, lunarLarge: best.large,
      swift: best.swift,
      redux: best.redux.isFinite ? best.redux : nil, iterations: iterations
    )
  }

  private func lunarStore(items: Int) throws -> Store<LuaState, LuaValue> {
    // NB: no time limit: the large state is built by one long call of the benchmark's own code, and
    //     a loaded machine must not fail the run.
    let host = try LuaFeatureHost(limits: .init(instructionsPerCall: 1_000_000, timePerCall: nil))
    let feature = try host.load(
      source: BenchScripts.counterFeature(items: items),
      chunkName: "bench.lua"
    )
    let store = Store(initialState: feature.initialState) { feature.reducer() }
    store.send(["type": "increment"])
    return store
  }

  /// Wall-clock and CPU nanoseconds per action of one run of `iterations` sends.
  private func measure(_ store: Store<LuaState, LuaValue>, _ action: LuaValue) -> (wall: Double, cpu: Double) {
    let cpuStart = threadCPUNanoseconds()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations {
      blackHole(store.send(action))
    }
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start)
    let cpu = Double(threadCPUNanoseconds() - cpuStart)
    return (wall / Double(iterations), cpu / Double(iterations))
  }
}

/// A Redux-style store in plain Lua (`bench/redux_counter.lua` of LunarBench), run by the system's
/// `lua5.4`.
///
/// The script times itself with `os.clock`, which counts CPU time (Lua has no finer wall clock), so
/// Lunar's side of this comparison is CPU time too: on a busy machine, wall-clock time would count
/// against Lunar the moments the machine takes the CPU away, and not against the script.
final class ReduxBaseline {
  private let lua: String
  private let script: URL

  /// `nil` when `lua5.4` is not installed or the script cannot be written.
  init?() {
    guard let lua = ["/usr/bin/lua5.4", "/usr/local/bin/lua5.4", "/opt/homebrew/bin/lua5.4", "/opt/homebrew/bin/lua"]
      .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let script = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-redux-\(getpid()).lua")
    guard (try? BenchLua.reduxCounter.write(to: script, atomically: true, encoding: .utf8)) != nil else { return nil }
    self.lua = lua
    self.script = script
  }

  deinit {
    try? FileManager.default.removeItem(at: script)
  }

  /// CPU nanoseconds per action of one run of `iterations` actions; `nil` when the run fails.
  func measure(iterations: Int) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: lua)
    process.arguments = [script.path, String(iterations), "1"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
