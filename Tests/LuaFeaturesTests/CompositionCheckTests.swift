import Clocks
import Composable
import ComposableTesting
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// What composition checks: malformed child states and actions for children that are not there
/// are errors that roll the whole action back; bodies are checked when the feature loads; the
/// snapshot follows child writes; `lunar.test` addresses children (`Fixtures/composition`).
@MainActor
struct CompositionCheckTests {
  let harness: FeatureHarness
  let app: LuaFeature

  init() throws {
    harness = try FeatureHarness()
    app = try harness.host.load(
      FeatureLocation(resolving: CompositionTests.folder.appendingPathComponent("app.lua").path))
  }

  func store() -> TestStore<LuaState, LuaValue> {
    let app = self.app
    return TestStore(initialState: app.initialState) { app.reducer() }
  }

  static func wrapped(_ key: String, id: Int64? = nil, _ action: LuaValue) -> LuaValue {
    CompositionTests.wrapped(key, id: id, action)
  }

  static func todo(_ id: Int64, _ title: String, done: Bool = false) -> LuaValue {
    CompositionTests.todo(id, title, done: done)
  }

  // MARK: Errors roll the action back

  @Test func pushingAnUnknownDestinationIsAnErrorAndRolledBack() async throws {
    let store = store()
    await store.send(["type": "push", "screen": "nowhere"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("\"nowhere\" is not a destination of lunar.stack(\"path\")"), "\(error)")
    #expect(error.message.contains("detail, settings"))
    #expect(error.line == line(of: "lunar.push(state.path", in: try appSource()), "\(error)")
  }

  @Test func pushingAMalformedChildStateIsAnErrorAndRolledBack() async throws {
    let store = store()
    await store.send(["type": "push", "screen": "detail", "state": "not a table"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("the state of \"detail\" must be a table"), "\(error)")
  }

  @Test func aStackEntryWrittenByHandIsCheckedAndRolledBack() async throws {
    let store = store()
    await store.send(["type": "corrupt"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("\"nowhere\", which is not a destination"), "\(error)")
  }

  @Test func duplicateElementIDsAreAnErrorAndRolledBack() async throws {
    let store = store()
    await store.send(["type": "duplicate"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.hasSuffix(": two elements of state.todos have the id 7"), "\(error)")
    #expect(error.file == "app.lua", "\(error)")
  }

  @Test func anActionForAMissingElementIsAnError() async throws {
    let store = store()
    await store.send(Self.wrapped("todos", id: 42, ["type": "toggle"]))
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("no element with id"), "\(error)")
  }

  @Test func aComposedChildsErrorNamesItsOwnLineAndItsNameThenTheParentsNamesOnlyItsLine() async throws {
    let source = """
      local lunar = require "lunar"
      local Row = lunar.feature { name = "Row", initial = { id = 0 }, reduce = function() end }
      local Shelf = lunar.feature {
        name = "Shelf",
        initial = { rows = {} },
        body = {
          lunar.forEach("rows", Row),
          lunar.reduce(function() end), -- shelf
        },
      }
      return lunar.feature {
        name = "Library",
        initial = { shelf = { rows = { { id = 1 } } }, rows = {} },
        body = {
          lunar.scope("shelf", Shelf),
          lunar.forEach("rows", Row),
          lunar.reduce(function() end), -- library
        },
      }
      """
    let library = try harness.load(source, chunkName: "library.lua")
    let store = TestStore(initialState: library.initialState) { library.reducer() }
    let shelf = try #require(line(of: "-- shelf", in: source))
    let own = try #require(line(of: "-- library", in: source))

    await store.send(Self.wrapped("shelf", Self.wrapped("rows", id: 5, ["type": "poke"])))
    let child = try #require(harness.takeErrors().first)
    #expect(
      child.message
        == "library.lua:\(shelf): no element with id 5 in state.rows (it was removed, or the action names the wrong id) (in Shelf)")

    await store.send(Self.wrapped("rows", id: 5, ["type": "poke"]))
    let parent = try #require(harness.takeErrors().first)
    #expect(
      parent.message
        == "library.lua:\(own): no element with id 5 in state.rows (it was removed, or the action names the wrong id)")
  }

  @Test func anActionForAnAbsentChildIsAnError() async throws {
    let store = store()
    await store.send(Self.wrapped("detail", ["type": "load"]))
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains("while nothing is presented"), "\(error)")
  }

  @Test func aFailingChildRollsBackTheWholeAction() async throws {
    let store = store()
    // NB: the parent writes parentSaw after the child wrote count; "tick" on a string count raises
    //     in the child, and neither write survives.
    await store.send(Self.wrapped("counter", ["type": "increment"])) {
      $0.counter = ["count": 1]
      $0.parentSaw = 1
    }
    await store.send(Self.wrapped("todos", id: 7, ["type": "toggle"])) {
      $0.todos = [Self.todo(7, "milk", done: true), Self.todo(9, "eggs")]
      $0.lastToggled = 7
      $0.parentSaw = true
    }
    await store.send(["type": "push", "screen": "detail", "state": 3])
    #expect(harness.takeErrors().count == 1)
  }

  // MARK: Loading

  @Test func aFeatureWithBothReduceAndBodyDoesNotLoad() throws {
    #expect(throws: LuaFeatureError.self) {
      try harness.load(
        """
        local lunar = require "lunar"
        return lunar.feature { name = "X", initial = {}, reduce = function() end, body = { lunar.reduce(function() end) } }
        """)
    }
  }

  @Test func aBodyOfSomethingElseDoesNotLoad() throws {
    do {
      _ = try harness.load(
        """
        local lunar = require "lunar"
        return lunar.feature { name = "X", initial = {}, body = { function() end } }
        """)
      Issue.record("expected a load error")
    } catch {
      #expect("\(error)".contains("body[1] is function"), "\(error)")
    }
  }

  // MARK: Snapshot

  @Test func theSnapshotFollowsChildWritesFromTheRoot() async throws {
    let reducer = app.reducer()
    let store = Store(initialState: app.initialState) { reducer }
    store.send(Self.wrapped("todos", id: 9, ["type": "toggle"]))
    store.send(["type": "push", "screen": "settings"])
    store.send(Self.wrapped("path", id: 0, Self.wrapped("counter", ["type": "increment"])))
    store.send(["type": "remove", "id": 7])
    store.send(["type": "open", "title": "t"])
    store.send(Self.wrapped("detail", ["type": "setTitle", "title": "u"]))
    #expect(harness.errors.isEmpty, "\(harness.errors)")
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func aNewListOfRowsTakenFromTheStateHoldsTheirValues() async throws {
    let feature = try harness.load(
      """
      local lunar = require "lunar"
      local Row = lunar.feature {
        name = "Row", initial = {},
        reduce = function(state, action) if action.type == "toggle" then state.done = not state.done end end,
      }
      return lunar.feature {
        name = "List", initial = { rows = { { id = 1, done = true }, { id = 2, done = false } } },
        body = {
          lunar.forEach("rows", Row),
          lunar.reduce(function(state, action)
            if action.type == "keepActive" then
              local kept = {}
              for _, row in ipairs(state.rows) do
                if not row.done then kept[#kept + 1] = row end
              end
              state.rows = kept
            end
          end),
        },
      }
      """, chunkName: "list.lua")
    let reducer = feature.reducer()
    let store = Store(initialState: feature.initialState) { reducer }
    store.send(["type": "keepActive"])
    store.send(Self.wrapped("rows", id: 2, ["type": "toggle"]))
    #expect(harness.errors.isEmpty, "\(harness.errors)")
    #expect(store.state.rows == [["id": 2, "done": true]])
    #expect(try reducer.residentState() == store.state.value)
  }

  func appSource() throws -> String {
    try String(contentsOf: CompositionTests.folder.appendingPathComponent("app.lua"), encoding: .utf8)
  }
}

/// `lunar.test` addresses children by the wrapped actions (`Fixtures/composition/composition_test.lua`).
@MainActor
struct CompositionLuaTestTests {
  @Test func everyFixtureTestPasses() async throws {
    let file = CompositionTests.folder.appendingPathComponent("composition_test.lua")
    let results = await LuaTestRunner().run(file: file)
    #expect(results.count == 6)
    for result in results {
      #expect(result.failures == [], "\(result.name): \(result.failures)")
    }
  }
}
