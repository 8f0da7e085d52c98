import ComposableTesting
@testable import LuaFeatures
import Testing

/// A Lua feature run as a reducer of Swift `Codable` types: state fields are Swift properties,
/// actions enum cases (`{ type = "case", field = … }`), delegate actions from Lua arrive as cases.
@MainActor
struct TypedLuaReducerTests {
  struct Editor: Codable, Equatable, Sendable {
    var text = ""
    var saves = 0
  }

  enum Delegate: Codable, Equatable, Sendable {
    case saved(text: String)
  }

  enum EditorAction: Codable, Equatable, Sendable {
    case edited(text: String)
    case save
    case delegate(action: Delegate)
  }

  static let source = """
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
        elseif action.type == "corrupt" then
          state.saves = "many"
        end
      end,
    }
    """

  @Test func stateIsSwiftTypedAndADelegateActionArrivesAsACase() async throws {
    let feature = try LuaFeatureHost().load(source: Self.source, chunkName: "editor.lua")
    let initial = try feature.initialState(as: Editor.self)
    let store = TestStore(initialState: initial) {
      feature.typedReducer(of: Editor.self, EditorAction.self)
    }
    await store.send(.edited(text: "milk")) { $0.text = "milk" }
    await store.send(.save) { $0.saves = 1 }
    await store.receive(.delegate(action: .saved(text: "milk")))
    #expect(store.state.saves == 1)
  }

  @Test func aStateThatDoesNotReadAsTheSwiftTypeNamesTheFieldAndTheType() throws {
    let host = try LuaFeatureHost()
    let errors = LockIsolated<[String]>([])
    host.onError = { error in errors.withValue { $0.append(error.message) } }
    let feature = try host.load(source: Self.source.replacingOccurrences(of: "save = {},", with: "save = {}, corrupt = {},"), chunkName: "editor.lua")
    enum Corrupting: Codable, Sendable { case corrupt }
    let store = Store(initialState: Editor(text: "a", saves: 2)) {
      feature.typedReducer(of: Editor.self, Corrupting.self)
    }
    store.send(.corrupt)
    #expect(store.state == Editor(text: "a", saves: 2))
    #expect(errors.value.count == 1, "\(errors.value)")
    #expect(errors.value.first?.hasPrefix("the state does not read as Editor: ") == true, "\(errors.value)")
    #expect(errors.value.first?.contains("saves") == true, "\(errors.value)")
  }

  @Test func actionsConvertToLunarsFormAndBack() throws {
    let swift = try LuaEncoder().encode(EditorAction.delegate(action: .saved(text: "x")))
    let lua = try LuaActionCoding.lua(from: swift)
    #expect(lua == ["type": "delegate", "action": ["type": "saved", "text": "x"]])
    #expect(try LuaDecoder().decode(EditorAction.self, from: try LuaActionCoding.swift(from: lua)) == .delegate(action: .saved(text: "x")))
    #expect(try LuaActionCoding.lua(from: try LuaEncoder().encode(EditorAction.save)) == ["type": "save"])
  }
}
