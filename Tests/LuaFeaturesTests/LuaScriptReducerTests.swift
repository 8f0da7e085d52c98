import ComposableTesting
import Foundation
@testable import LuaFeatures
import Testing

/// A Lua child written inside a Swift parent's `body` (`LuaScriptReducer`): the script loaded once
/// per host, each state with its own instance, load errors reported with the reducer's line.
@MainActor
struct LuaScriptReducerTests {
  static let editor = """
    local lunar = require "lunar"
    local fx = lunar.fx
    return lunar.feature {
      name = "Editor",
      initial = { text = "", saves = 0 },
      actions = {
        edited = { text = "string" },
        save = {},
        delegate = { action = { saved = { text = "string" } } },
      },
      reduce = function(state, action)
        if action.type == "edited" then
          state.text = action.text
        elseif action.type == "save" then
          state.saves = state.saves + 1
          return fx.send { type = "delegate", action = { type = "saved", text = state.text } }
        end
      end,
    }
    """

  /// A folder holding `feature.lua`, removed with the value.
  final class ScriptFolder {
    let url: URL
    var path: String { url.path }

    init(_ source: String) throws {
      url = FileManager.default.temporaryDirectory
        .appendingPathComponent("lunar-script-\(UUID().uuidString)").resolvingSymlinksInPath()
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      try write(source)
    }

    func write(_ source: String) throws {
      try source.write(to: url.appendingPathComponent("feature.lua"), atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
  }

  struct Notes: Reducer {
    struct State: Equatable {
      var titles: [String] = []
      var editor: LuaState
    }

    enum Action: Equatable, Sendable, CasePathable {
      case editor(LuaValue)

      struct AllCasePaths {
        var editor: AnyCasePath<Action, LuaValue> {
          AnyCasePath(embed: Action.editor) {
            guard case let .editor(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    let editorPath: String

    var body: some ReducerOf<Self> {
      Scope(state: \.editor, action: \.editor) { LuaScriptReducer(editorPath) }
      Reduce { state, action in
        if case let .editor(child) = action, child["type"] == "delegate", case let .string(title) = child["action"]["text"] {
          state.titles.append(title.description)
        }
        return .none
      }
    }
  }

  @Test func aParentsBodyBuildsTheLuaChildAndATestStoreAssertsEveryChange() async throws {
    let folder = try ScriptFolder(Self.editor)
    let host = try LuaFeatureHost()
    let initial = try LuaScriptReducer(folder.path).initialState(in: host)
    let store = TestStore(initialState: Notes.State(editor: initial)) {
      Notes(editorPath: folder.path)
    } withDependencies: {
      $0.luaFeatureHost = host
    }
    await store.send(.editor(["type": "edited", "text": "milk"])) { $0.editor.text = "milk" }
    await store.send(.editor(["type": "save"])) { $0.editor.saves = 1 }
    await store.receive(.editor(["type": "delegate", "action": ["type": "saved", "text": "milk"]])) {
      $0.titles = ["milk"]
    }
  }

  @Test func twoStoresBuiltFromOneDescriptionKeepTheirOwnState() throws {
    let folder = try ScriptFolder(Self.editor)
    let host = try LuaFeatureHost()
    let initial = Notes.State(editor: try LuaScriptReducer(folder.path).initialState(in: host))
    let first = Store(initialState: initial) { Notes(editorPath: folder.path) } withDependencies: { $0.luaFeatureHost = host }
    let second = Store(initialState: initial) { Notes(editorPath: folder.path) } withDependencies: { $0.luaFeatureHost = host }
    first.send(.editor(["type": "edited", "text": "milk"]))
    first.send(.editor(["type": "save"]))
    second.send(.editor(["type": "edited", "text": "eggs"]))
    #expect(first.state.editor.value == ["text": "milk", "saves": 1])
    #expect(second.state.editor.value == ["text": "eggs", "saves": 0])
    #expect(first.state.titles == ["milk"])
    #expect(second.state.titles == [])
    #expect(first.state.editor.owner !== second.state.editor.owner)
    first.send(.editor(["type": "edited", "text": "bread"]))
    #expect(second.state.editor.text == "eggs")
  }

  @Test func aStateHandedToAnotherScriptIsReducedByThatScript() throws {
    let folder = try ScriptFolder(Self.editor)
    let shouting = try ScriptFolder(Self.editor.replacingOccurrences(of: "state.text = action.text", with: "state.text = action.text:upper()"))
    let host = try LuaFeatureHost()
    var state = try LuaScriptReducer(folder.path).initialState(in: host)
    let first = Store(initialState: state) { LuaScriptReducer(folder.path) } withDependencies: { $0.luaFeatureHost = host }
    first.send(["type": "edited", "text": "milk"])
    state = first.state
    let second = Store(initialState: state) { LuaScriptReducer(shouting.path) } withDependencies: { $0.luaFeatureHost = host }
    second.send(["type": "edited", "text": "eggs"])
    #expect(second.state.value == ["text": "EGGS", "saves": 0])
    #expect(first.state.text == "milk")
  }

  @Test func theScriptIsLoadedOnceForEveryStoreAndEveryEvaluationOfBody() throws {
    let folder = try ScriptFolder(Self.editor)
    let host = try LuaFeatureHost()
    let initial = Notes.State(editor: try LuaScriptReducer(folder.path).initialState(in: host))
    let stores = (0..<3).map { _ in
      Store(initialState: initial) { Notes(editorPath: folder.path) } withDependencies: { $0.luaFeatureHost = host }
    }
    for (index, store) in stores.enumerated() {
      for count in 0...index { store.send(.editor(["type": "edited", "text": .string(LuaString("\(count)"))])) }
    }
    #expect(stores.map(\.state.editor.text) == ["0", "1", "2"])
    #expect(host.scripts.loads == 1)
    #expect(try LuaScriptReducer(folder.path).feature(in: host) === LuaScriptReducer(folder.path).feature(in: host))
  }

  struct Rows: Reducer {
    struct Row: Equatable, Identifiable {
      let id: Int
      var lua: LuaState
    }

    enum RowAction: Equatable, Sendable, CasePathable {
      case lua(LuaValue)

      struct AllCasePaths {
        var lua: AnyCasePath<RowAction, LuaValue> {
          AnyCasePath(embed: RowAction.lua) {
            guard case let .lua(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    struct RowReducer: Reducer {
      let path: String
      var body: some Reducer<Row, RowAction> {
        Scope(state: \.lua, action: \.lua) { LuaScriptReducer(path) }
      }
    }

    struct State: Equatable { var rows: IdentifiedArrayOf<Row> }
    enum Action: Equatable, Sendable, CasePathable {
      case rows(IdentifiedAction<Int, RowAction>)

      struct AllCasePaths {
        var rows: AnyCasePath<Action, IdentifiedAction<Int, RowAction>> {
          AnyCasePath(embed: Action.rows) {
            guard case let .rows(action) = $0 else { return nil }
            return action
          }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    let path: String

    var body: some ReducerOf<Self> {
      EmptyReducer().forEach(\.rows, action: \.rows) { RowReducer(path: path) }
    }
  }

  @Test func everyRowOfAForEachHasItsOwnInstance() throws {
    let folder = try ScriptFolder(Self.editor)
    let host = try LuaFeatureHost()
    let initial = try LuaScriptReducer(folder.path).initialState(in: host)
    let store = Store(initialState: Rows.State(rows: [.init(id: 1, lua: initial), .init(id: 2, lua: initial)])) {
      Rows(path: folder.path)
    } withDependencies: {
      $0.luaFeatureHost = host
    }
    store.send(.rows(.element(id: 1, action: .lua(["type": "edited", "text": "one"]))))
    store.send(.rows(.element(id: 2, action: .lua(["type": "edited", "text": "two"]))))
    store.send(.rows(.element(id: 1, action: .lua(["type": "save"]))))
    #expect(store.state.rows.map(\.lua.value) == [["text": "one", "saves": 1], ["text": "two", "saves": 0]])
    #expect(store.state.rows[id: 1]?.lua.owner !== store.state.rows[id: 2]?.lua.owner)
    #expect(host.scripts.loads == 1)
  }

  @Test func aMissingScriptIsReportedWithTheReducersLineAndNothingIsReduced() throws {
    let host = try LuaFeatureHost()
    let errors = LockIsolated<[LuaFeatureError]>([])
    host.onError = { error in errors.withValue { $0.append(error) } }
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-no-such-\(UUID().uuidString)").path
    let store = Store(initialState: Notes.State(editor: LuaState(["text": "kept"]))) {
      Notes(editorPath: missing)
    } withDependencies: {
      $0.luaFeatureHost = host
    }
    store.send(.editor(["type": "edited", "text": "milk"]))
    #expect(store.state.editor.value == ["text": "kept"])
    #expect(errors.value.count == 1)
    let error = try #require(errors.value.first)
    #expect(error.kind == .load)
    #expect(error.message.hasPrefix("no such file or folder: \(missing)"), "\(error.message)")
    #expect(error.message.contains("script of LuaScriptReducer(\"\(missing)\") at LuaFeaturesTests/LuaScriptReducerTests.swift:74"), "\(error.message)")
    #expect(error.message.hasSuffix("the action was not reduced"), "\(error.message)")
    #expect(throws: LuaFeatureError.self) { try LuaScriptReducer(missing).initialState(in: host) }
  }

  @Test func aScriptThatDoesNotCompileNamesItsFileAndLine() throws {
    let folder = try ScriptFolder("local lunar = require \"lunar\"\n\nreturn lunar.feature {{\n")
    let host = try LuaFeatureHost()
    do {
      _ = try LuaScriptReducer(folder.path).feature(in: host)
      Issue.record("a script that does not compile loaded")
    } catch {
      #expect(error.kind == .load)
      #expect(error.location?.hasPrefix("feature.lua:") == true, "\(error)")
      #expect(error.message.contains("script of LuaScriptReducer(\"\(folder.path)\") at LuaFeaturesTests/LuaScriptReducerTests.swift:"), "\(error.message)")
    }
    #expect(host.scripts.loads == 0)
    // Fixed on disk: the next use loads it, no reload needed.
    try folder.write(Self.editor)
    #expect(try LuaScriptReducer(folder.path).feature(in: host).name == "Editor")
  }

  nonisolated static func described(_ path: String) -> LuaScriptReducer {
    LuaScriptReducer(path)
  }

  @Test func aDescriptionBuiltOffTheMainActorRunsInAStore() async throws {
    let folder = try ScriptFolder(Self.editor)
    let path = folder.path
    let reducer = await Task.detached { Self.described(path) }.value
    let host = try LuaFeatureHost()
    let initial = try reducer.initialState(in: host)
    let store = Store(initialState: initial) { reducer } withDependencies: { $0.luaFeatureHost = host }
    store.send(["type": "edited", "text": "milk"])
    #expect(store.state.value == ["text": "milk", "saves": 0])
    #expect(try reducer.render(store.state) == nil)
  }

  @Test func reloadingTheScriptSwapsTheInstanceOfEveryState() throws {
    let counter = """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Counter",
        initial = { count = 0 },
        reduce = function(state, action)
          if action.type == "increment" then state.count = state.count + STEP end
        end,
      }
      """
    let folder = try ScriptFolder(counter.replacingOccurrences(of: "STEP", with: "1"))
    let host = try LuaFeatureHost()
    let script = LuaScriptReducer(folder.path)
    let stores = (0..<2).map { _ in
      Store(initialState: LuaState(["count": 0])) { LuaScriptReducer(folder.path) } withDependencies: { $0.luaFeatureHost = host }
    }
    for store in stores { store.send(["type": "increment"]) }
    try folder.write(counter.replacingOccurrences(of: "STEP", with: "10"))
    try host.reload(script)
    for store in stores { store.send(["type": "increment"]) }
    #expect(stores.map { $0.state.count } == [11, 11])
    #expect(host.scripts.loads == 2)
  }
}
