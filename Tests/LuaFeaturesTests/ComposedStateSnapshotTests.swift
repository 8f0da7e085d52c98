import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// The snapshot Swift keeps of a composed feature — rows of a `lunar.forEach`, a presented
/// `lunar.ifLet` child, the entries of a `lunar.stack` — is patched from the one journal of the
/// whole body; it must always equal a full read of the state resident in Lua, and an action that
/// fails must leave both exactly as they were.
@MainActor
struct ComposedStateSnapshotTests {
  /// A board of rows, a presented sheet and a navigation stack, whose actions add, remove, reorder
  /// and replace children and write their nested fields; any action fails after its writes when
  /// it (or the child action it wraps) says `fail = true`.
  static let source = """
    local lunar = require "lunar"

    local function edit(state, action)
      local kind = action.type
      if kind == "toggle" then
        state.done = not state.done
      elseif kind == "rename" then
        state.title = action.title
      elseif kind == "tag" then
        if state.meta == nil then state.meta = {} end
        if state.meta.tags == nil then state.meta.tags = {} end
        state.meta.tags[#state.meta.tags + 1] = action.title
      elseif kind == "untag" then
        if state.meta ~= nil and state.meta.tags ~= nil then table.remove(state.meta.tags, 1) end
      elseif kind == "deep" then
        if state.meta == nil then state.meta = {} end
        state.meta.deep = { x = action.n, list = { action.n, action.n + 1 } }
      elseif kind == "undeep" then
        if state.meta ~= nil then state.meta.deep = nil end
      end
      if action.fail then error("rolled back") end
    end

    local Row = lunar.feature {
      name = "Row",
      initial = { id = 0, title = "", done = false, meta = { tags = {} } },
      reduce = function(state, action) edit(state, action) end,
    }

    local Sheet = lunar.feature {
      name = "Sheet",
      initial = { title = "", done = false },
      reduce = function(state, action) edit(state, action) end,
    }

    local function newRow(state, title)
      local id = state.nextRow
      state.nextRow = id + 1
      return { id = id, title = title, done = false, meta = { tags = { title } } }
    end

    return lunar.feature {
      name = "Board",
      initial = {
        rows = {
          { id = 1, title = "a", done = false, meta = { tags = {} } },
          { id = 2, title = "b", done = true, meta = { tags = { "x" } } },
          { id = 3, title = "c", done = false, meta = { tags = {} } },
        },
        path = {},
        nextRow = 4,
      },
      body = {
        lunar.forEach("rows", Row),
        lunar.ifLet("detail", Sheet),
        lunar.stack("path", { sheet = Sheet, row = Row }),
        lunar.reduce(function(state, action)
          state.seen = (state.seen or 0) + 1
          local kind, rows = action.type, state.rows
          if kind == "add" then
            rows[#rows + 1] = newRow(state, action.title)
          elseif kind == "insert" then
            table.insert(rows, math.min(action.index, #rows + 1), newRow(state, action.title))
          elseif kind == "removeAt" then
            if #rows > 0 then table.remove(rows, math.min(action.index, #rows)) end
          elseif kind == "removeLast" then
            rows[#rows] = nil
          elseif kind == "reverse" then
            local reversed = {}
            for i = #rows, 1, -1 do reversed[#reversed + 1] = rows[i] end
            state.rows = reversed
          elseif kind == "replace" then
            local kept = {}
            for i = 1, #rows, 2 do kept[#kept + 1] = rows[i] end
            kept[#kept + 1] = newRow(state, action.title)
            state.rows = kept
          elseif kind == "swap" then
            if #rows > 1 then rows[1], rows[#rows] = rows[#rows], rows[1] end
          elseif kind == "nested" then
            local row = rows[math.min(action.index, #rows)]
            if row ~= nil then
              row.meta.deep = { x = action.n }
              row.meta.tags[#row.meta.tags + 1] = action.title
            end
          elseif kind == "present" then
            state.detail = { title = action.title, done = false, meta = { tags = {} } }
          elseif kind == "close" then
            state.detail = nil
          elseif kind == "push" then
            lunar.push(state.path, action.screen)
          elseif kind == "pop" then
            state.path[#state.path] = nil
          end
          if action.fail then error("rolled back") end
        end),
      },
    }
    """

  /// Each step also replays `lastChanges` on the state before the action: the changes an action
  /// reports must take the state to what Lua holds after it.
  @Test func thePatchedSnapshotOfAComposedFeatureEqualsAFullReadAfterHundredsOfRandomActions() throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "board.lua")
    let reducer = feature.reducer()
    let store = Store(initialState: feature.initialState) { reducer }
    var generator = ComposedActionGenerator(seed: 0xB0A2D)
    var failures = 0
    var kinds: [String: Int] = [:]
    for step in 0..<600 {
      let before = try reducer.residentState() ?? feature.initialValue
      let (action, kind, fails) = generator.action(for: before)
      store.send(action)
      let resident = try reducer.residentState()
      #expect(
        store.state.value == resident,
        "step \(step): \(action)\nfirst difference: \(firstDifference(store.state.value, resident ?? .nil) ?? "-")")
      guard store.state.value == resident else { return }
      let replayed = reducer.lastChanges.reduce(before) { $0.setting($1.path[...], to: $1.value) }
      #expect(
        replayed.comparable == resident?.comparable,
        "step \(step): \(action)\nlastChanges: \(reducer.lastChanges)\nfirst difference: \(firstDifference(replayed, resident ?? .nil) ?? "-")")
      guard replayed.comparable == resident?.comparable else { return }
      if fails {
        #expect(reducer.lastChanges.isEmpty, "step \(step): \(action) failed but reports \(reducer.lastChanges)")
        failures += 1
        #expect(resident == before, "step \(step): \(action) failed but changed the state")
        guard resident == before else { return }
      } else {
        kinds[kind, default: 0] += 1
      }
    }
    let errors = harness.takeErrors()
    #expect(errors.count == failures, "\(errors.filter { !$0.message.contains("rolled back") })")
    #expect(failures > 30)
    for kind in ComposedActionGenerator.kinds {
      #expect(kinds[kind, default: 0] > 3, "\(kind) ran \(kinds[kind, default: 0]) times without failing")
    }
  }
}

/// Random actions for the `Board` feature, chosen from its current state so that each addresses a
/// child that is there. Deterministic for a seed.
struct ComposedActionGenerator {
  static let kinds = [
    "add", "insert", "removeAt", "removeLast", "reverse", "replace", "swap", "nested", "present", "close",
    "push", "pop", "row", "detail", "dismissDetail", "entry", "dismissEntry",
  ]

  var rng: SplitMix64

  init(seed: UInt64) { rng = SplitMix64(seed: seed) }

  /// An action, the kind it was drawn as, and whether it fails.
  mutating func action(for state: LuaValue) -> (LuaValue, String, Bool) {
    let rows = (state["rows"].arrayValue ?? []).compactMap { $0["id"].integerValue }
    let entries = (state["path"].arrayValue ?? []).compactMap { $0["id"].integerValue }
    let presented = !state["detail"].isNil
    var kind = Self.kinds[Int(rng.next(UInt64(Self.kinds.count)))]
    // NB: a child action needs a child to address; without one, the parent adds it instead.
    if kind == "row" && rows.isEmpty { kind = "add" }
    if (kind == "detail" || kind == "dismissDetail") && !presented { kind = "present" }
    if (kind == "entry" || kind == "dismissEntry") && entries.isEmpty { kind = "push" }
    let outerFails = rng.next(10) == 0
    var innerFails = false
    var action: [LuaString: LuaValue]
    switch kind {
    case "row":
      let child = childAction()
      innerFails = child.fails
      action = ["type": "rows", "id": .integer(pick(rows)), "action": child.action]
    case "detail":
      let child = childAction()
      innerFails = child.fails
      action = ["type": "detail", "action": child.action]
    case "dismissDetail":
      action = ["type": "detail", "action": ["type": "dismiss"]]
    case "entry":
      let child = childAction()
      innerFails = child.fails
      action = ["type": "path", "id": .integer(pick(entries)), "action": child.action]
    case "dismissEntry":
      action = ["type": "path", "id": .integer(pick(entries)), "action": ["type": "dismiss"]]
    default:
      action = [
        "type": .text(kind), "title": .text("t\(rng.next(10))"), "index": .integer(Int64(1 + rng.next(5))),
        "n": .integer(Int64(rng.next(100))), "screen": rng.next(2) == 0 ? "sheet" : "row",
      ]
    }
    if outerFails { action["fail"] = true }
    return (.table(action), kind, outerFails || innerFails)
  }

  private mutating func childAction() -> (action: LuaValue, fails: Bool) {
    let kinds = ["toggle", "rename", "tag", "untag", "deep", "undeep"]
    var action: [LuaString: LuaValue] = [
      "type": .text(kinds[Int(rng.next(UInt64(kinds.count)))]), "title": .text("c\(rng.next(10))"),
      "n": .integer(Int64(rng.next(100))),
    ]
    let fails = rng.next(10) == 0
    if fails { action["fail"] = true }
    return (.table(action), fails)
  }

  private mutating func pick(_ ids: [Int64]) -> Int64 { ids[Int(rng.next(UInt64(ids.count)))] }
}

extension LuaValue {
  /// The value with `value` put at `path` (an integer key of an array appends at its end, `.nil`
  /// removes), as Lua would store it.
  fileprivate func setting(_ path: ArraySlice<LuaValue>, to value: LuaValue) -> LuaValue {
    guard let key = path.first else { return value }
    let rest = path.dropFirst()
    switch (self, key) {
    case (.table(let fields), .integer) where fields.isEmpty:
      return LuaValue.array([]).setting(path, to: value)
    case (.array(var elements), .integer(let position)):
      let index = Int(position) - 1
      while elements.count <= index { elements.append(.nil) }
      elements[index] = elements[index].setting(rest, to: value)
      return LuaValue.array(elements).normalized
    case (.table(var fields), .string(let name)):
      fields[name] = (fields[name] ?? .nil).setting(rest, to: value)
      return LuaValue.table(fields).normalized
    case (.nil, .string):
      return LuaValue.table([:]).setting(path, to: value)
    default:
      Issue.record("no place for \(key) in \(self)")
      return self
    }
  }

  /// The value with empty arrays read as empty tables: Lua tells them apart only by a marker that
  /// a change report does not carry.
  fileprivate var comparable: LuaValue {
    switch self {
    case let .array(elements): elements.isEmpty ? .table([:]) : .array(elements.map(\.comparable))
    case let .table(fields): .table(fields.mapValues(\.comparable))
    default: self
    }
  }
}
