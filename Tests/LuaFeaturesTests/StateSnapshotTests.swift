import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// The snapshot Swift keeps is patched from the reducer's write journal; it must always equal a
/// full read of the state table resident in Lua.
@MainActor
struct StateSnapshotTests {
  /// A feature that applies the mutations an action describes, at a path into its state.
  static let source = """
    local lunar = require "lunar"

    local function at(state, path)
      local t = state
      for _, key in ipairs(path) do
        if type(t) ~= "table" then return nil end
        t = t[key]
      end
      if type(t) ~= "table" then return nil end
      return t
    end

    local function apply(state, op)
      local t = at(state, op.path)
      if t == nil then return end
      local kind = op.kind
      if kind == "set" then
        t[op.key] = op.value
      elseif kind == "remove" then
        t[op.key] = nil
      elseif kind == "append" then
        t[#t + 1] = op.value
      elseif kind == "insert" then
        table.insert(t, math.min(op.index, #t + 1), op.value)
      elseif kind == "removeAt" then
        if #t > 0 then table.remove(t, math.min(op.index, #t)) end
      elseif kind == "pop" then
        t[#t] = nil
      elseif kind == "setIndex" then
        if op.index <= #t then t[op.index] = op.value end
      elseif kind == "hole" then
        if op.index <= #t then t[op.index] = nil end
      elseif kind == "beyond" then
        t[#t + 2] = op.value
      elseif kind == "sort" then
        local numbers, count = true, 0
        for k in pairs(t) do count = count + 1 end
        for i = 1, #t do numbers = numbers and math.type(t[i]) == "integer" end
        if numbers and count == #t and #t > 0 then table.sort(t) end
      elseif kind == "replaceWithCopy" then
        local copy = {}
        for k, v in pairs(t) do copy[k] = type(v) == "table" and {} or v end
        local parent = at(state, { table.unpack(op.path, 1, #op.path - 1) })
        if parent ~= nil and #op.path > 0 then parent[op.path[#op.path]] = copy end
      end
    end

    return lunar.feature {
      name = "Shapes",
      initial = { list = { 1, 2, 3 }, record = { name = "a", nested = { x = 1 } }, empty = {} },
      reduce = function(state, action)
        for _, op in ipairs(action.ops) do apply(state, op) end
        if action.fail then error("rolled back") end
      end,
    }
    """

  @Test func thePatchedSnapshotEqualsAFullReadAfterThousandsOfRandomMutations() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "shapes.lua")
    let reducer = feature.reducer()
    let store = Store(initialState: feature.initialState) { reducer }
    var generator = MutationGenerator(seed: 0x5EED)
    var failures = 0
    for step in 0..<1_000 {
      let truth = try reducer.residentState() ?? feature.initialValue
      let action = generator.action(for: truth)
      store.send(action)
      let resident = try reducer.residentState()
      #expect(store.state.value == resident, "step \(step): \(action)\nfirst difference: \(firstDifference(store.state.value, resident ?? .nil) ?? "-")")
      guard store.state.value == resident else { return }
      if action[LuaString("fail")] == true { failures += 1 }
    }
    let errors = harness.takeErrors()
    #expect(errors.count == failures, "\(errors.filter { !$0.message.contains("rolled back") })")
    #expect(failures > 40)
  }

  @Test func writesUnderThousandsOfNewKeysArePatchedRightPastEveryRenaming() throws {
    // NB: every action writes under two keys never written before (one at the root, one in a
    //     table) and a field of one of 100 rows: the host's ids for keys and paths are handed out
    //     anew every 4,096 names, four times here. No action puts a table, so every change is
    //     patched by its key and path.
    let harness = try FeatureHarness()
    let feature = try harness.load(
      """
      local lunar = require "lunar"
      local rows = {}
      for i = 1, 100 do rows[i] = { v = 0 } end
      return lunar.feature {
        name = "Names",
        initial = { count = 0, total = 0, last = 0, tags = { first = true }, rows = rows },
        reduce = function(state, action)
          local n = action.n
          state.count = n
          state.total = n + 1
          state.last = -n
          state["a" .. n] = -n
          state.rows[n % 100 + 1].v = 3 * n
          state.tags["b" .. n] = 2 * n
          state["a" .. (n - 2)] = nil
          state.tags["b" .. (n - 2)] = nil
        end,
      }
      """, chunkName: "names.lua")
    let reducer = feature.reducer()
    let store = Store(initialState: feature.initialState) { reducer }
    for n in 1...9_000 {
      store.send(["type": "name", "n": .integer(Int64(n))])
      let resident = try reducer.residentState()
      guard store.state.value == resident else {
        Issue.record("action \(n): \(firstDifference(store.state.value, resident ?? .nil) ?? "-")")
        return
      }
    }
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.value["a9000"] == -9_000)
    #expect(store.state.value["tags"]["b9000"] == 18_000)
  }

  @Test func aFieldSetBeforeAKeyWrittenIntoAnArrayIsPatchedWithIt() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "shapes.lua")
    let reducer = feature.reducer()
    let store = Store(initialState: feature.initialState) { reducer }
    // NB: the first change sets a field in place; the second, a key of what Swift holds as an
    //     array, cannot be: the first is undone, and both are planned together.
    store.send([
      "ops": [
        ["kind": "set", "path": ["record"], "key": "name", "value": "b"],
        ["kind": "set", "path": ["list"], "key": "name", "value": "x"],
      ]
    ])
    #expect(harness.takeErrors().isEmpty)
    #expect(store.state.value == (try reducer.residentState()))
    #expect(store.state.value["record"]["name"] == "b")
    #expect(store.state.value["list"]["name"] == "x")
  }
}

/// Random mutations of a state, described as actions for the `Shapes` feature. Deterministic for a
/// seed.
struct MutationGenerator {
  var rng: SplitMix64

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  mutating func action(for state: LuaValue) -> LuaValue {
    var ops: [LuaValue] = []
    for _ in 0..<(1 + rng.next(3)) { ops.append(op(for: state)) }
    var action: [LuaString: LuaValue] = ["type": "mutate", "ops": .array(ops)]
    if rng.next(12) == 0 { action["fail"] = true }
    return .table(action)
  }

  private mutating func op(for state: LuaValue) -> LuaValue {
    let containers = Self.containers(in: state, at: [])
    let path = containers[Int(rng.next(UInt64(containers.count)))]
    let kinds: [String] = [
      "set", "set", "remove", "append", "append", "insert", "removeAt", "pop", "setIndex", "hole",
      "beyond", "sort", "replaceWithCopy",
    ]
    let kind = kinds[Int(rng.next(UInt64(kinds.count)))]
    return [
      "kind": .text(kind), "path": .array(path), "key": key(), "value": value(depth: 0),
      "index": .integer(Int64(1 + rng.next(5))),
    ]
  }

  private mutating func key() -> LuaValue {
    switch rng.next(4) {
    case 0: return .integer(Int64(1 + rng.next(4)))
    default: return .text(["a", "b", "c", "list", "name"][Int(rng.next(5))])
    }
  }

  private mutating func value(depth: Int) -> LuaValue {
    switch rng.next(depth > 1 ? 5 : 8) {
    case 0: return .integer(Int64(rng.next(100)))
    case 1: return .number(Double(rng.next(100)) + 0.5)
    case 2: return .text("s\(rng.next(10))")
    case 3: return .boolean(rng.next(2) == 0)
    case 4: return .nil
    case 5: return .table([:])
    case 6: return .array((0..<rng.next(4)).map { _ in value(depth: depth + 1) }.filter { !$0.isNil })
    default: return ["a": value(depth: depth + 1), "b": value(depth: depth + 1)]
    }
  }

  /// The paths of every table in `value` that Lua can reach by the same keys.
  static func containers(in value: LuaValue, at path: [LuaValue]) -> [[LuaValue]] {
    switch value {
    case let .array(elements):
      return [path] + elements.enumerated().flatMap { containers(in: $1, at: path + [.integer(Int64($0 + 1))]) }
    case let .table(fields):
      return [path] + fields.sorted { $0.key < $1.key }.flatMap { key, value in
        // NB: a mixed table reads integer keys as decimal strings; Lua would not find them by string.
        key.string.flatMap(Int64.init) != nil ? [] : containers(in: value, at: path + [.string(key)])
      }
    default:
      return []
    }
  }
}

/// A small seeded generator (SplitMix64), so a failing run can be replayed.
struct SplitMix64 {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func next(_ bound: UInt64) -> UInt64 { next() % bound }
}
