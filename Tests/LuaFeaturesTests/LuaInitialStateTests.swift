import Composable
import Dependencies
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// `initial = function(deps) … end` and `Feature:initialWith(fields, deps)`: initial states built
/// with a store's dependencies.
@MainActor
struct LuaInitialStateTests {
  static let source = #"""
    local lunar = require "lunar"

    local Form = lunar.feature {
      name = "Form",
      initial = function(deps) return { id = deps.uuid(), title = "" } end,
      shared = { theme = lunar.shared("theme", { default = "light" }) },
      reduce = function() end,
    }

    return lunar.feature {
      name = "Root",
      initial = function(deps) return { session = deps.uuid(), path = {} } end,
      body = {
        lunar.ifLet("form", Form),
        lunar.stack("path", { form = Form }),
        lunar.reduce(function(state, action, deps)
          if action.type == "open" then
            state.form = Form:initialWith({ title = action.title }, deps)
          elseif action.type == "openWithoutDeps" then
            state.form = Form:initialWith { title = action.title }
          elseif action.type == "push" then
            lunar.push(state.path, "form")
          end
        end),
      },
    }
    """#

  static func uuid(_ n: Int) -> LuaValue { .text(String(format: "00000000-0000-0000-0000-%012X", n)) }

  @Test func aStoreStartsFromTheStateItsInitialFunctionBuildsWithTheDependencies() throws {
    let harness = try FeatureHarness()
    let root = try harness.load(Self.source)
    let state = withDependencies { $0.uuid = .incrementing } operation: { root.initialState }
    #expect(state.value[LuaString("session")] == Self.uuid(0))
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func initialWithBuildsAChildWithTheReducersDepsAndTheSharedValue() throws {
    let harness = try FeatureHarness()
    harness.host.shared.reset(fileStorage: .inMemory())
    let root = try harness.load(Self.source)
    let store = Store(initialState: LuaState(["session": "s", "path": []])) {
      root.reducer()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    store.send(["type": "open", "title": "Design"])
    #expect(store.state.value[LuaString("form")] == ["id": Self.uuid(0), "title": "Design", "theme": "light"])
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func initialWithWithoutDepsForAnInitialFunctionIsAnError() throws {
    let harness = try FeatureHarness()
    let root = try harness.load(Self.source)
    let store = makeStore(root.reducer(), state: LuaState(["session": "s", "path": []]))
    store.send(["type": "openWithoutDeps", "title": "Design"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains(
      "Form's initial state is built with deps: call Form:initialWith(fields, deps) with the deps your reducer gets"))
    #expect(store.state.value[LuaString("form")] == .nil)
  }

  @Test func pushingADestinationWhoseInitialIsAFunctionNeedsItsState() throws {
    let harness = try FeatureHarness()
    let root = try harness.load(Self.source)
    let store = makeStore(root.reducer(), state: LuaState(["session": "s", "path": []]))
    store.send(["type": "push"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.contains(
      #"lunar.push: Form's initial state is built with deps: pass it, as in lunar.push(state.path, "form", Form:initialWith({}, deps))"#))
    #expect(store.state.value[LuaString("path")] == [])
  }
}
