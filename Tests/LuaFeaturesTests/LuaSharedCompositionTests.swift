import Composable
import ConcurrencyExtras
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// Shared state declared by the children of a composition (`lunar.scope`, `forEach`, `ifLet`,
/// `stack`), and `lunar.sharedElement`: a field that is one element of a shared array.
@MainActor
struct LuaSharedCompositionTests {
  /// A list of meetings persisted to a file (`syncUps`), a detail screen holding one of them (by
  /// `ifLet` and on a stack), and a settings child, once scoped and once per row, sharing `theme`.
  static let app = #"""
    local lunar = require "lunar"

    local Detail = lunar.feature {
      name = "Detail",
      initial = { edits = 0 },
      shared = { syncUp = lunar.sharedElement("syncUps") },
      reduce = function(state, action)
        if action.type == "rename" then
          state.syncUp.title = action.title
          state.edits = state.edits + 1
        end
      end,
    }

    local Settings = lunar.feature {
      name = "Settings",
      initial = {},
      shared = { theme = lunar.shared("theme", { default = "light" }) },
      reduce = function(state, action)
        if action.type == "set" then state.theme = action.theme end
      end,
    }

    local function find(list, id)
      for _, item in ipairs(list) do
        if item.id == id then return item end
      end
    end

    return lunar.feature {
      name = "App",
      initial = { settings = Settings:initialWith {}, rows = {}, path = {} },
      shared = { syncUps = lunar.shared("syncUps", { default = {}, storage = "file" }) },
      body = {
        lunar.scope("settings", Settings),
        lunar.forEach("rows", Settings),
        lunar.ifLet("detail", Detail),
        lunar.stack("path", { detail = Detail }),
        lunar.reduce(function(state, action)
          if action.type == "add" then
            state.syncUps[#state.syncUps + 1] = { id = action.id, title = action.title }
          elseif action.type == "open" then
            state.detail = Detail:initialWith { syncUp = find(state.syncUps, action.id) }
          elseif action.type == "push" then
            lunar.push(state.path, "detail", Detail:initialWith { syncUp = find(state.syncUps, action.id) })
          elseif action.type == "rename" then
            find(state.syncUps, action.id).title = action.title
          elseif action.type == "remove" then
            table.remove(state.syncUps, 1)
          elseif action.type == "addRow" then
            state.rows[#state.rows + 1] = Settings:initialWith { id = action.id }
          end
        end),
      },
    }
    """#

  let files = LockIsolated<[String: Data]>([:])
  let harness: FeatureHarness

  init() throws {
    let files = self.files
    harness = try FeatureHarness()
    harness.host.shared.reset(fileStorage: FileStorage(
      load: { url in files.value[url.path] },
      save: { data, url in files.withValue { $0[url.path] = data } },
      moveAside: { url, _ in url },
      claim: { _ in }
    ))
  }

  /// The `syncUps` file, decoded.
  func savedSyncUps() throws -> LuaValue {
    let path = harness.host.shared.folder.appendingPathComponent("syncUps.json").path
    let data = try #require(files.value[path])
    return try LuaJSONDecoder().decode(Array(data))
  }

  func title(_ value: LuaValue) -> LuaValue { value[LuaString("title")] }

  func row(_ state: LuaState, _ key: String, _ position: Int) -> LuaValue {
    guard let rows = state.value[LuaString(key)].arrayValue, rows.indices.contains(position - 1) else { return .nil }
    return rows[position - 1]
  }

  /// A store of the app with the meetings 1 ("Design") and 2 ("Standup"), meeting 1 open in the
  /// detail and pushed on the stack.
  func openApp() throws -> (Store<LuaState, LuaValue>, LuaReducer) {
    let app = try harness.load(Self.app, chunkName: "app.lua")
    let reducer = app.reducer()
    let store = makeStore(reducer, state: app.initialState)
    store.send(["type": "add", "id": 1, "title": "Design"])
    store.send(["type": "add", "id": 2, "title": "Standup"])
    store.send(["type": "open", "id": 1])
    store.send(["type": "push", "id": 1])
    return (store, reducer)
  }

  @Test func aScopedChildsSharedFieldIsOneValueWithEveryOtherPlaceOfItsKey() throws {
    let (store, reducer) = try openApp()
    store.send(["type": "addRow", "id": "a"])
    store.send(["type": "settings", "action": ["type": "set", "theme": "dark"]])
    // The scoped child wrote it; the row holding the same key sees it in the same action.
    #expect(store.state.value[LuaString("settings")][LuaString("theme")] == "dark")
    #expect(row(store.state, "rows", 1)[LuaString("theme")] == "dark")
    #expect(harness.host.shared.value(forKey: "theme") == "dark")
    store.send(["type": "rows", "id": "a", "action": ["type": "set", "theme": "blue"]])
    #expect(store.state.value[LuaString("settings")][LuaString("theme")] == "blue")
    #expect(try reducer.residentState() == store.state.value)
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aDestinationCaseHoldingAnElementWritesThroughToTheList() throws {
    let app = try harness.load(
      #"""
      local lunar = require "lunar"
      local Detail = lunar.feature {
        name = "Detail", initial = {},
        shared = { syncUp = lunar.sharedElement("syncUps") },
        reduce = function(state, action)
          if action.type == "rename" then state.syncUp.title = action.title end
        end,
      }
      return lunar.feature {
        name = "List", initial = {},
        shared = { syncUps = lunar.shared("syncUps", { default = { { id = 1, title = "Design" } } }) },
        body = {
          lunar.destination("destination", { detail = Detail, alert = lunar.alert }),
          lunar.reduce(function(state, action)
            if action.type == "show" then
              state.destination = { screen = "detail", state = Detail:initialWith { syncUp = state.syncUps[1] } }
            elseif action.type == "retitle" then
              state.syncUps[1].title = action.title
            end
          end),
        },
      }
      """#, chunkName: "list.lua")
    let store = makeStore(app.reducer(), state: app.initialState)
    store.send(["type": "show"])
    store.send(["type": "destination", "action": ["type": "detail", "action": ["type": "rename", "title": "Retro"]]])
    let detail = store.state.value[LuaString("destination")][LuaString("state")][LuaString("syncUp")]
    #expect(title(detail) == "Retro")
    #expect(title(row(store.state, "syncUps", 1)) == "Retro")
    // And back: a write to the list reaches the presented case.
    store.send(["type": "retitle", "title": "Standup"])
    #expect(title(store.state.value[LuaString("destination")][LuaString("state")][LuaString("syncUp")]) == "Standup")
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aChildPresentedLaterStartsFromTheCurrentValue() throws {
    let (store, reducer) = try openApp()
    store.send(["type": "settings", "action": ["type": "set", "theme": "dark"]])
    // `Settings:initialWith {}` holds the default, "light": the row takes the shared value.
    store.send(["type": "addRow", "id": "a"])
    #expect(row(store.state, "rows", 1)[LuaString("theme")] == "dark")
    #expect(harness.host.shared.value(forKey: "theme") == "dark")
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func anotherStoresChildSeesTheChangeAtItsNextAction() throws {
    let (store, _) = try openApp()
    let other = try harness.load(
      #"""
      local lunar = require "lunar"
      local Theme = lunar.feature {
        name = "Theme", initial = { looks = 0 },
        shared = { theme = lunar.shared("theme", { default = "light" }) },
        reduce = function(state) state.looks = state.looks + 1 end,
      }
      return lunar.feature { name = "Panel", initial = { theme = Theme.initial }, body = { lunar.scope("theme", Theme) } }
      """#, chunkName: "panel.lua")
    let panel = makeStore(other.reducer(), state: other.initialState)
    store.send(["type": "settings", "action": ["type": "set", "theme": "dark"]])
    #expect(panel.state.value[LuaString("theme")][LuaString("theme")] == "light")
    panel.send(["type": "theme", "action": ["type": "look"]])
    #expect(panel.state.value[LuaString("theme")][LuaString("theme")] == "dark")
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aWriteToAnElementReachesTheListEveryOtherHolderAndTheFileInTheSameAction() throws {
    let (store, reducer) = try openApp()
    store.send(["type": "detail", "action": ["type": "rename", "title": "Retro"]])
    #expect(title(row(store.state, "syncUps", 1)) == "Retro")
    #expect(title(store.state.value[LuaString("detail")][LuaString("syncUp")]) == "Retro")
    #expect(title(row(store.state, "path", 1)[LuaString("state")][LuaString("syncUp")]) == "Retro")
    #expect(title(row(store.state, "syncUps", 2)) == "Standup")
    #expect(try savedSyncUps() == [["id": 1, "title": "Retro"], ["id": 2, "title": "Standup"]])
    #expect(try reducer.residentState() == store.state.value)
    // The stack's screen writes: the list and the presented detail follow.
    store.send(["type": "path", "id": 0, "action": ["type": "rename", "title": "Planning"]])
    #expect(title(store.state.value[LuaString("detail")][LuaString("syncUp")]) == "Planning")
    #expect(title(row(store.state, "syncUps", 1)) == "Planning")
    #expect(try reducer.residentState() == store.state.value)
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aWriteToTheCollectionReachesItsElementsHolders() throws {
    let (store, reducer) = try openApp()
    store.send(["type": "rename", "id": 1, "title": "Kickoff"])
    #expect(title(store.state.value[LuaString("detail")][LuaString("syncUp")]) == "Kickoff")
    #expect(title(row(store.state, "path", 1)[LuaString("state")][LuaString("syncUp")]) == "Kickoff")
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func anElementRemovedFromTheCollectionKeepsItsLastValueAndItsWritesStayItsOwn() throws {
    let (store, reducer) = try openApp()
    store.send(["type": "remove"])
    #expect(store.state.value[LuaString("syncUps")] == [["id": 2, "title": "Standup"]])
    #expect(store.state.value[LuaString("detail")][LuaString("syncUp")] == ["id": 1, "title": "Design"])
    store.send(["type": "detail", "action": ["type": "rename", "title": "Gone"]])
    #expect(title(store.state.value[LuaString("detail")][LuaString("syncUp")]) == "Gone")
    #expect(store.state.value[LuaString("detail")][LuaString("edits")] == 1)
    #expect(store.state.value[LuaString("syncUps")] == [["id": 2, "title": "Standup"]])
    #expect(title(row(store.state, "path", 1)[LuaString("state")][LuaString("syncUp")]) == "Design")
    #expect(try savedSyncUps() == [["id": 2, "title": "Standup"]])
    #expect(try reducer.residentState() == store.state.value)
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func rowsOfAListEachFollowTheirOwnElement() throws {
    let board = try harness.load(
      #"""
      local lunar = require "lunar"
      local Card = lunar.feature {
        name = "Card", initial = {},
        shared = { item = lunar.sharedElement("items") },
        reduce = function(state, action) if action.type == "done" then state.item.done = true end end,
      }
      return lunar.feature {
        name = "Board",
        initial = { cards = {} },
        shared = { items = lunar.shared("items", { default = { { id = 1, done = false }, { id = 2, done = false } } }) },
        body = {
          lunar.forEach("cards", Card),
          lunar.reduce(function(state, action)
            if action.type == "show" then
              state.cards[#state.cards + 1] = { id = #state.cards + 1, item = { id = action.item } }
            end
          end),
        },
      }
      """#, chunkName: "board.lua")
    let reducer = board.reducer()
    let store = makeStore(reducer, state: board.initialState)
    store.send(["type": "show", "item": 2])
    store.send(["type": "show", "item": 1])
    store.send(["type": "show", "item": 2])
    #expect(harness.takeErrors().map(\.message) == [])
    // A row put in the state with only the element's id holds the element.
    #expect(row(store.state, "cards", 1)[LuaString("item")] == ["id": 2, "done": false])
    store.send(["type": "cards", "id": 1, "action": ["type": "done"]])
    #expect(store.state.value[LuaString("items")] == [["id": 1, "done": false], ["id": 2, "done": true]])
    #expect(row(store.state, "cards", 3)[LuaString("item")] == ["id": 2, "done": true])
    #expect(row(store.state, "cards", 2)[LuaString("item")] == ["id": 1, "done": false])
    #expect(try reducer.residentState() == store.state.value)
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func childrenDeclaringOneKeyDifferentlyFailTheLoadNamingBoth() throws {
    let error = #expect(throws: LuaFeatureError.self) {
      try harness.load(
        #"""
        local lunar = require "lunar"
        local A = lunar.feature { name = "A", initial = {}, shared = { s = lunar.shared("mode", { default = 1 }) },
          reduce = function() end }
        local B = lunar.feature { name = "B", initial = {},
          shared = { s = lunar.shared("mode", { default = 1, storage = "file" }) }, reduce = function() end }
        return lunar.feature { name = "Both", initial = { a = {}, b = {} },
          body = { lunar.scope("a", A), lunar.scope("b", B) } }
        """#)
    }
    #expect(error?.message.contains(#"feature B: lunar.shared("mode") is declared with storage "file", but A declared it with storage "memory""#) == true)
    let shape = #expect(throws: LuaFeatureError.self) {
      try harness.load(
        #"""
        local lunar = require "lunar"
        local C = lunar.feature { name = "C", initial = {}, shared = { s = lunar.shared("theme", { default = { dark = true } }) },
          reduce = function() end }
        return lunar.feature { name = "Root", initial = { c = {} }, shared = { theme = lunar.shared("theme", { default = "x" }) },
          body = { lunar.scope("c", C) } }
        """#)
    }
    #expect(shape?.message.contains("feature C: lunar.shared(\"theme\") has a default of shape { dark: boolean }, but Root declared") == true)
  }
}

/// `Fixtures/sharedElement`: a list persisted to a file, a screen holding one of its meetings, and
/// initial states built with the test store's `deps`, asserted from Lua.
@MainActor
struct LuaSharedElementLuaTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/sharedElement")

  @Test func luaTestsAssertElementWritesAndInitialStatesBuiltWithDeps() async throws {
    let results = await LuaTestRunner().run(file: Self.folder.appendingPathComponent("list_test.lua"))
    #expect(results.map(\.name) == [
      "initial state and initialWith draw ids from the test's deps",
      "a mocked uuid builds the initial state",
      "a screen's write to its meeting reaches the list in the same action",
    ])
    for result in results {
      #expect(result.passed, "\(result.name): \(result.failures)")
    }
  }
}
