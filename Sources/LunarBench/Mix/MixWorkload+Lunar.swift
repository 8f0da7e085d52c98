import Foundation
import Composable
import LuaBridge
import LuaFeatures

extension MixWorkload {
  /// The `i`th action (from 1) Lunar's store receives, the same as `bench/redux_mix.lua` dispatches.
  func action(_ i: Int) -> LuaValue {
    switch self {
    case .counter, .increment: ["type": "increment"]
    // NB: values that alternate, so that every write changes the state.
    case .twoWrites:
      i % 2 == 1
        ? ["type": "setStatus", "loading": true, "fact": "42 is a number."]
        : ["type": "setStatus", "loading": false, "fact": "43 is a number."]
    case .nested: ["type": "setCity", "city": i % 2 == 1 ? "Lyon" : "Paris"]
    case .toggleRow, .toggleRow10, .toggleRow10000:
      ["type": "todos", "id": .integer(Int64(rows / 2)), "action": ["type": "toggle"]]
    case .addRemove, .addRemove10:
      i % 2 == 1 ? ["type": "add", "title": "milk"] : ["type": "remove", "id": .integer(Int64(rows + i / 2))]
    case .effect: ["type": "factTapped"]
    }
  }

  /// The counter example's feature, in the checkout the benchmarks were built from.
  static let counterExample = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples/counter/feature.lua")

  /// A store of the mix feature (`bench/mix.lua`) over `rows` rows, as the workload starts it.
  @MainActor
  public func makeLunarStore() throws -> Store<LuaState, LuaValue> {
    // NB: the shipped limits, every mechanism on, but a generous clock: under a profiler, the
    //     first call (the large state crossing into Lua) is slow, and must not fail the run.
    let host = try LuaFeatureHost(limits: .init(timePerCall: .seconds(600)))
    host.onError = { error in fatalError("the action mix failed: \(error)") }
    if self == .counter {
      let path = Self.counterExample.path
      guard FileManager.default.fileExists(atPath: path) else {
        throw MixWorkloadError("the counter example is not at \(path): the counter workload runs from Lunar's checkout")
      }
      let feature = try host.load(FeatureLocation(resolving: path))
      return Store(initialState: feature.initialState) { feature.reducer() }
    }
    let feature = try host.load(source: EmbeddedLua.benchMix.source, chunkName: EmbeddedLua.benchMix.name)
    guard case var .table(fields) = feature.initialState.value else {
      throw MixWorkloadError("bench/mix.lua's initial state is not a table")
    }
    let todos: [LuaValue] = (1...rows).map { id in
      ["id": .integer(Int64(id)), "title": .text("row \(id)"), "done": false]
    }
    fields["todos"] = .array(todos)
    fields["nextId"] = .integer(Int64(rows))
    return Store(initialState: LuaState(.table(fields))) { feature.reducer() }
  }

  /// Sends the workload's actions `actions` (from 1 for a new store) through `store`, a store from
  /// ``makeLunarStore()``, cancelling each effect's task at once.
  @MainActor
  public func send(_ actions: ClosedRange<Int>, to store: Store<LuaState, LuaValue>) {
    if kind == "addRemove" {
      for i in actions { store.send(action(i)).cancel() }
    } else {
      // NB: made once, as the Redux-style side makes each in a few Lua instructions.
      let odd = action(1)
      let even = action(2)
      for i in actions { store.send(i % 2 == 1 ? odd : even).cancel() }
    }
  }

  /// Sets up Lunar's side of the workload, sends its action `times` times, and checks the state
  /// they made. With `read`, the state is read after the first action, as a view or a test reads
  /// it: from then on each action patches a Swift copy of the state (without, the state stays a
  /// view of the table in Lua, which nothing reads until the check).
  @MainActor
  public func runLunar(times: Int, read: Bool = false) throws {
    let store = try makeLunarStore()
    send(1...1, to: store)
    if read { _ = store.state.value }
    if times > 1 { send(2...times, to: store) }
    try check(store.state.value, times: times)
  }

  /// Throws unless `state` is what `times` actions of the workload make (as `check` in
  /// `bench/redux_mix.lua`): a benchmark whose actions failed would measure nothing.
  public func check(_ state: LuaValue, times: Int) throws {
    let odd = times % 2 == 1
    let todos = state["todos"].arrayValue ?? []
    let ok: Bool
    switch self {
    case .counter, .increment: ok = state["count"] == .integer(Int64(times)) && state["fact"] == nil
    case .twoWrites:
      ok = state["loading"] == .boolean(odd) && state["fact"] == (odd ? "42 is a number." : "43 is a number.")
    case .nested: ok = state["profile"]["address"]["city"] == (odd ? "Lyon" : "Paris")
    case .toggleRow, .toggleRow10, .toggleRow10000:
      ok = todos.count == rows && todos[rows / 2 - 1]["done"] == .boolean(odd)
    case .addRemove, .addRemove10:
      ok = todos.count == rows + (odd ? 1 : 0) && state["nextId"] == .integer(Int64(rows + (times + 1) / 2))
    case .effect: ok = state["loading"] == true && state["fact"] == nil
    }
    guard ok else { throw MixWorkloadError("Lunar's store did not do what \(times) actions of \(rawValue) do: \(state)") }
  }
}

/// The action mix could not be set up.
public struct MixWorkloadError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
