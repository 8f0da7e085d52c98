import CLua
import CLuaShim
import LuaBridge

/// What ``BridgeBenchmark/run(callIterations:encodeRounds:)`` measured: nanoseconds per operation
/// through LuaBridge and through the bare Lua C API, in the same process, and their ratios.
public struct BridgeBenchmarkResult: Sendable, Hashable, CustomStringConvertible {
  /// One call of a Lua function that increments a field of a registry-held table, bare C API.
  public var callBareNanoseconds: Double
  /// The same call through `LuaVM.call(_:on:with:)` with no instruction budget (like for like).
  public var callBridgeNanoseconds: Double
  /// The same call through `LuaVM.call` with the default instruction budget (its count hook on).
  public var callBridgeBudgetedNanoseconds: Double
  /// Pushing a 1,000-element array of 4-field structs with hand-written C API calls.
  public var encodeBareNanoseconds: Double
  /// Pushing the same array with `LuaEncoded` (LuaEncoder, streaming).
  public var encodeBridgeNanoseconds: Double

  /// Bridge call time over bare call time.
  public var callRatio: Double { callBridgeNanoseconds / callBareNanoseconds }
  /// Budgeted bridge call time over bare call time.
  public var callBudgetedRatio: Double { callBridgeBudgetedNanoseconds / callBareNanoseconds }
  /// LuaEncoder time over hand-written pushes.
  public var encodeRatio: Double { encodeBridgeNanoseconds / encodeBareNanoseconds }

  public var description: String {
    func f(_ x: Double) -> String { String(Int(x.rounded())) }
    func r(_ x: Double) -> String { String(Double(Int(x * 100)) / 100) }
    return """
      call (increment a registry table field)
        bare C API           \(f(callBareNanoseconds)) ns/op
        LuaBridge            \(f(callBridgeNanoseconds)) ns/op   ratio \(r(callRatio))x
        LuaBridge + budget   \(f(callBridgeBudgetedNanoseconds)) ns/op   ratio \(r(callBudgetedRatio))x
      push 1,000 structs
        hand-written C API   \(f(encodeBareNanoseconds)) ns/op
        LuaEncoder           \(f(encodeBridgeNanoseconds)) ns/op   ratio \(r(encodeRatio))x
      """
  }
}

/// The LuaBridge benchmark behind `lunar-bench bridge`. Build in release mode to get meaningful
/// figures; compare ratios, not absolute times.
public enum BridgeBenchmark {
  /// The element of the encoding benchmark.
  struct Item: Encodable {
    var id: Int
    var name: String
    var done: Bool
    var score: Double
  }

  static let incrementSource = "return function(t, by) t.count = t.count + by end"
  static let sinkSource = "return function(v) end"

  /// Runs both benchmarks, interleaving bare and bridge rounds and keeping each one's best round
  /// (the least disturbed by the machine).
  public static func run(callIterations: Int = 200_000, encodeRounds: Int = 200) throws -> BridgeBenchmarkResult {
    let bare = try BareLua()
    let vm = try LuaVM(limits: .unlimited)
    let budgeted = try LuaVM(limits: .default)
    let increment = try vm.load(incrementSource, chunkName: "bench.lua").call(returning: LuaFunction.self)
    let state = try vm.reference(["count": 0] as LuaValue).table!
    let budgetedIncrement = try budgeted.load(incrementSource, chunkName: "bench.lua").call(returning: LuaFunction.self)
    let budgetedState = try budgeted.reference(["count": 0] as LuaValue).table!
    let sink = try vm.load(sinkSource, chunkName: "sink.lua").call(returning: LuaFunction.self)
    let items = (0..<1_000).map { Item(id: $0, name: "item \($0)", done: $0 % 2 == 0, score: Double($0) / 3) }

    var best = [Double](repeating: .infinity, count: 5)
    for _ in 0..<7 {
      best[0] = min(best[0], time(callIterations) { bare.increment() })
      best[1] = min(best[1], try time(callIterations) { try vm.call(increment, on: state, with: 1) })
      best[2] = min(best[2], try time(callIterations) { try budgeted.call(budgetedIncrement, on: budgetedState, with: 1) })
      best[3] = min(best[3], time(encodeRounds) { bare.push(items) })
      best[4] = min(best[4], try time(encodeRounds) { try vm.call(sink, LuaEncoded(items)) })
    }
    guard bare.count == 7 * callIterations else { throw BenchmarkError.wrongResult("bare count \(bare.count)") }
    return BridgeBenchmarkResult(
      callBareNanoseconds: best[0], callBridgeNanoseconds: best[1], callBridgeBudgetedNanoseconds: best[2],
      encodeBareNanoseconds: best[3], encodeBridgeNanoseconds: best[4])
  }

  /// One side of one benchmark, for running under a profiler (`valgrind --tool=callgrind`), where
  /// instruction counts give ratios that do not depend on the machine's load.
  public enum Workload: String, CaseIterable, Sendable {
    case bareCall, bridgeCall, bridgeBudgetedCall, bareEncode, bridgeEncode
  }

  /// Sets up `workload` and runs it `times` times (nothing is measured here).
  public static func repeatWorkload(_ workload: Workload, times: Int) throws {
    let items = (0..<1_000).map { Item(id: $0, name: "item \($0)", done: $0 % 2 == 0, score: Double($0) / 3) }
    switch workload {
    case .bareCall:
      let bare = try BareLua()
      for _ in 0..<times { bare.increment() }
    case .bareEncode:
      let bare = try BareLua()
      for _ in 0..<times { bare.push(items) }
    case .bridgeCall, .bridgeBudgetedCall:
      let vm = try LuaVM(limits: workload == .bridgeCall ? .unlimited : .default)
      let increment = try vm.load(incrementSource, chunkName: "bench.lua").call(returning: LuaFunction.self)
      let state = try vm.reference(["count": 0] as LuaValue).table!
      for _ in 0..<times { try vm.call(increment, on: state, with: 1) }
    case .bridgeEncode:
      let vm = try LuaVM(limits: .unlimited)
      let sink = try vm.load(sinkSource, chunkName: "sink.lua").call(returning: LuaFunction.self)
      for _ in 0..<times { try vm.call(sink, LuaEncoded(items)) }
    }
  }

  /// Nanoseconds per iteration of `body`.
  static func time(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
  }
}

/// A benchmark failed to set up or computed a wrong result.
public enum BenchmarkError: Error, CustomStringConvertible {
  case setup(String)
  case wrongResult(String)

  public var description: String {
    switch self {
    case .setup(let m): "benchmark setup failed: \(m)"
    case .wrongResult(let m): "benchmark computed a wrong result: \(m)"
    }
  }
}
