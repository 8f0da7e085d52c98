import Composable
import LuaBridge
@testable import LuaFeatures
import Testing

/// The host settles the commonest actions (one field set to a scalar) without the general change
/// list, and remembers the last field, and an element's path, from one action to the next. Each of
/// these tests sends a script of actions meant to trip those shortcuts and checks, after every
/// action, that the snapshot equals a full read of the state table.
@MainActor
struct OneWriteOutcomeTests {
  static let source = """
    local lunar = require "lunar"

    local Row = lunar.feature {
      name = "Row",
      initial = { id = 0, title = "", done = false },
      reduce = function(state, action)
        if action.type == "toggle" then state.done = not state.done
        elseif action.type == "rename" then state.title = action.title
        elseif action.type == "score" then state.score = action.score
        elseif action.type == "clear" then state.title = nil
        elseif action.type == "nest" then state.tags = { action.tag }
        end
      end,
    }

    local rows = {}
    for i = 1, 6 do rows[i] = { id = i, title = "row " .. i, done = false } end

    return lunar.feature {
      name = "Rows",
      initial = { rows = rows, count = 0, meta = { note = "" } },
      body = {
        lunar.forEach("rows", Row),
        lunar.reduce(function(state, action)
          if action.type == "bump" then state.count = state.count + 1
          elseif action.type == "note" then state.meta.note = action.note
          elseif action.type == "count" then state.count = action.value
          elseif action.type == "drop" then table.remove(state.rows, action.index)
          elseif action.type == "meta" then state.meta = { note = action.note }
          end
        end),
      },
    }
    """

  static func row(_ id: Int64, _ action: LuaValue) -> LuaValue {
    ["type": "rows", "id": .integer(id), "action": action]
  }

  private func run(_ actions: [LuaValue]) throws {
    let harness = try FeatureHarness()
    let feature = try harness.load(Self.source, chunkName: "rows.lua")
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    for (step, action) in actions.enumerated() {
      store.send(action)
      let resident = try reducer.residentState()
      #expect(store.state.value == resident, "after action \(step + 1), \(action)")
      guard store.state.value == resident else { return }
    }
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func theSameRowFieldSetAgainAndAgainStaysInStep() throws {
    try run(Array(repeating: Self.row(3, ["type": "toggle"]), count: 5))
  }

  @Test func anotherFieldOfTheSameRowIsNotTakenForTheLastOne() throws {
    try run([
      Self.row(3, ["type": "toggle"]),
      Self.row(3, ["type": "rename", "title": "three"]),
      Self.row(3, ["type": "toggle"]),
      Self.row(3, ["type": "score", "score": 2.5]),
      Self.row(3, ["type": "score", "score": 7]),
    ])
  }

  @Test func theSameFieldOfAnotherRowIsNotTakenForTheLastOne() throws {
    try run([
      Self.row(3, ["type": "toggle"]),
      Self.row(4, ["type": "toggle"]),
      Self.row(3, ["type": "toggle"]),
      Self.row(3, ["type": "toggle"]),
    ])
  }

  @Test func rootAndNestedWritesInTurnStayInStep() throws {
    try run([
      Self.row(2, ["type": "toggle"]),
      ["type": "bump"],
      Self.row(2, ["type": "toggle"]),
      ["type": "note", "note": "a"],
      Self.row(2, ["type": "toggle"]),
      ["type": "bump"],
      ["type": "bump"],
      Self.row(2, ["type": "toggle"]),
    ])
  }

  @Test func aRowThatMovedIsStillFoundByItsPath() throws {
    // NB: row 5 moves to index 4; the element at the cached path changes.
    try run([
      Self.row(5, ["type": "toggle"]),
      ["type": "drop", "index": 2],
      Self.row(5, ["type": "toggle"]),
      Self.row(6, ["type": "toggle"]),
      Self.row(5, ["type": "toggle"]),
    ])
  }

  @Test func writesThatAreNotOneScalarTakeTheGeneralPath() throws {
    try run([
      Self.row(1, ["type": "toggle"]),
      Self.row(1, ["type": "clear"]),                // a removal
      Self.row(1, ["type": "nest", "tag": "x"]),     // a table
      Self.row(1, ["type": "rename", "title": "é"]),  // a string again
      ["type": "meta", "note": "b"],                 // a table at the root
      ["type": "note", "note": "c"],
      ["type": "count", "value": 1.5],               // a float where an integer was
      ["type": "count", "value": 2],
      ["type": "nothing"],                           // no write at all
      ["type": "count", "value": 2],
    ])
  }
}
