import Clocks
import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// What `lunar.forEach` knows of a list's ids between actions: an action is checked only at the
/// rows it wrote, so what it knew must follow every change — a failed action, a row's `id`
/// rewritten, rows swapped — or a duplicate would slip through, or a new row be refused.
@MainActor
struct ListIdentityTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    local Row = lunar.feature {
      name = "Row",
      initial = { id = 0, saved = false },
      reduce = function(state, action, deps)
        if action.type == "save" then
          return fx.run(function(send)
            deps.clock.sleep(1)
            send { type = "saved" }
          end)
        elseif action.type == "saved" then
          state.saved = true
        end
      end,
    }

    return lunar.feature {
      name = "Rows",
      initial = { rows = { { id = 1, saved = false }, { id = 2, saved = false } } },
      body = {
        lunar.forEach("rows", Row),
        lunar.reduce(function(state, action)
          local rows = state.rows
          if action.type == "add" then
            rows[#rows + 1] = { id = action.id, saved = false }
          elseif action.type == "removeLast" then
            rows[#rows] = nil
          elseif action.type == "renumber" then
            rows[action.at].id = action.id
          elseif action.type == "swap" then
            rows[1], rows[2] = rows[2], rows[1]
          end
        end),
      },
    }
    """

  /// The list in a child: the child's action is checked, then its parent fails, which undoes it.
  static let nestedSource = """
    local lunar = require "lunar"

    local Row = lunar.feature { name = "Row", initial = { id = 0 }, reduce = function() end }

    local List = lunar.feature {
      name = "List",
      initial = { rows = { { id = 1 } } },
      body = {
        lunar.forEach("rows", Row),
        lunar.reduce(function(state, action)
          if action.type == "add" then state.rows[#state.rows + 1] = { id = action.id } end
        end),
      },
    }

    return lunar.feature {
      name = "Parent",
      initial = { list = List.initial },
      body = {
        lunar.scope("list", List),
        lunar.reduce(function(_, action)
          if action.type == "list" and action.fail then error("the parent failed") end
        end),
      },
    }
    """

  let harness: FeatureHarness
  let feature: LuaFeature
  let clock = TestClock()

  init() throws {
    harness = try FeatureHarness()
    feature = try harness.load(Self.source, chunkName: "rows.lua")
  }

  func store() -> TestStore<LuaState, LuaValue> {
    let feature = self.feature
    let clock = self.clock
    return TestStore(initialState: feature.initialState) { feature.reducer() } withDependencies: {
      $0.continuousClock = clock
    }
  }

  static func row(_ id: Int64, saved: Bool = false) -> LuaValue {
    ["id": .integer(id), "saved": .boolean(saved)]
  }

  func duplicateError() throws -> String {
    let error = try #require(harness.takeErrors().first)
    return error.message
  }

  @Test func aRowAddedByAnActionThatFailedCanBeAddedAgain() async throws {
    let parent = try harness.load(Self.nestedSource, chunkName: "parent.lua")
    let store = TestStore(initialState: parent.initialState) { parent.reducer() }
    await store.send(["type": "list", "action": ["type": "add", "id": 2]]) {
      $0.list = ["rows": [["id": 1], ["id": 2]]]
    }
    await store.send(["type": "list", "fail": true, "action": ["type": "add", "id": 3]])
    #expect(try #require(harness.takeErrors().first).message.contains("the parent failed"))
    await store.send(["type": "list", "action": ["type": "add", "id": 3]]) {
      $0.list = ["rows": [["id": 1], ["id": 2], ["id": 3]]]
    }
    #expect(harness.errors.isEmpty, "\(harness.errors)")
  }

  @Test func addingAnIDTheListHoldsIsRefusedAfterEarlierAddsAndRemoves() async throws {
    let store = store()
    await store.send(["type": "add", "id": 3]) { $0.rows = [Self.row(1), Self.row(2), Self.row(3)] }
    await store.send(["type": "removeLast"]) { $0.rows = [Self.row(1), Self.row(2)] }
    await store.send(["type": "add", "id": 3]) { $0.rows = [Self.row(1), Self.row(2), Self.row(3)] }
    await store.send(["type": "add", "id": 2])
    #expect(try duplicateError().hasSuffix("two elements of state.rows have the id 2"))
  }

  @Test func rewritingARowsIDToAnotherRowsIsRefused() async throws {
    let store = store()
    await store.send(["type": "add", "id": 3]) { $0.rows = [Self.row(1), Self.row(2), Self.row(3)] }
    await store.send(["type": "renumber", "at": 3, "id": 1])
    #expect(try duplicateError().hasSuffix("two elements of state.rows have the id 1"))
  }

  @Test func aRowsOldIDIsFreeOnceItWasRewritten() async throws {
    let store = store()
    await store.send(["type": "add", "id": 3]) { $0.rows = [Self.row(1), Self.row(2), Self.row(3)] }
    await store.send(["type": "renumber", "at": 1, "id": 10]) { $0.rows = [Self.row(10), Self.row(2), Self.row(3)] }
    await store.send(["type": "add", "id": 1]) {
      $0.rows = [Self.row(10), Self.row(2), Self.row(3), Self.row(1)]
    }
    await store.send(["type": "add", "id": 10])
    #expect(try duplicateError().hasSuffix("two elements of state.rows have the id 10"))
  }

  @Test func rewritingARowsIDCancelsTheEffectsOfWhatItWas() async throws {
    let store = store()
    await store.send(["type": "rows", "id": 1, "action": ["type": "save"]])
    await store.send(["type": "renumber", "at": 1, "id": 10]) { $0.rows = [Self.row(10), Self.row(2)] }
    await clock.advance(by: .seconds(2))
    await store.finish()
    #expect(harness.errors.isEmpty, "\(harness.errors)")
  }

  @Test func swappingTwoRowsKeepsBothAddressable() async throws {
    let store = store()
    await store.send(["type": "add", "id": 3]) { $0.rows = [Self.row(1), Self.row(2), Self.row(3)] }
    await store.send(["type": "swap"]) { $0.rows = [Self.row(2), Self.row(1), Self.row(3)] }
    await store.send(["type": "rows", "id": 1, "action": ["type": "save"]])
    await clock.advance(by: .seconds(1))
    await store.receive(["type": "rows", "id": 1, "action": ["type": "saved"]]) {
      $0.rows = [Self.row(2), Self.row(1, saved: true), Self.row(3)]
    }
    await store.send(["type": "add", "id": 1])
    #expect(try duplicateError().hasSuffix("two elements of state.rows have the id 1"))
  }

  @Test func aRowJustAddedIsFoundAndTheOthersStillAre() async throws {
    let store = store()
    await store.send(["type": "rows", "id": 2, "action": ["type": "saved"]]) {
      $0.rows = [Self.row(1), Self.row(2, saved: true)]
    }
    await store.send(["type": "add", "id": 3]) { $0.rows = [Self.row(1), Self.row(2, saved: true), Self.row(3)] }
    await store.send(["type": "rows", "id": 3, "action": ["type": "saved"]]) {
      $0.rows = [Self.row(1), Self.row(2, saved: true), Self.row(3, saved: true)]
    }
    await store.send(["type": "rows", "id": 1, "action": ["type": "saved"]]) {
      $0.rows = [Self.row(1, saved: true), Self.row(2, saved: true), Self.row(3, saved: true)]
    }
    #expect(harness.errors.isEmpty, "\(harness.errors)")
  }

  @Test func aListMigratedByAReloadIsCheckedAgainstWhatMigrateLeft() async throws {
    func script(_ migrate: String) -> String {
      """
      local lunar = require "lunar"
      local Row = lunar.feature { name = "Row", initial = { id = 0 }, reduce = function() end }
      return lunar.feature {
        name = "Rows",
        initial = { rows = { { id = 1 }, { id = 2 } } },
        body = {
          lunar.forEach("rows", Row),
          lunar.reduce(function(state, action)
            if action.type == "add" then state.rows[#state.rows + 1] = { id = action.id } end
          end),
        },\(migrate)
      }
      """
    }
    let fixture = try ReloadFixture(["feature.lua": script("")])
    fixture.store.send(["type": "add", "id": 3])
    try fixture.write("feature.lua", script("""

        migrate = function(state)
          for _, row in ipairs(state.rows) do row.id = row.id * 10 end
        end,
      """))
    #expect(try await fixture.event(0).succeeded)
    fixture.store.send(["type": "add", "id": 1])
    #expect(fixture.harness.errors.isEmpty, "\(fixture.harness.errors)")
    #expect(fixture.store.state.value["rows"] == [["id": 10], ["id": 20], ["id": 30], ["id": 1]])
  }
}
