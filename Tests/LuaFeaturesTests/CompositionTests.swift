import Clocks
import Composable
import ComposableTesting
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// Composition declared in Lua (`body = { lunar.scope, lunar.forEach, lunar.ifLet, lunar.stack,
/// lunar.reduce }`), run with TCA's rules. The features are in `Fixtures/composition`: `app.lua`
/// composes `counter.lua`, `todo.lua`, `detail.lua` and `settings.lua` (itself composed).
@MainActor
struct CompositionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/composition")

  let harness: FeatureHarness
  let app: LuaFeature
  let clock = TestClock()

  init() throws {
    harness = try FeatureHarness()
    app = try harness.host.load(FeatureLocation(resolving: Self.folder.appendingPathComponent("app.lua").path))
  }

  func store(_ edit: (inout LuaState) -> Void = { _ in }) -> TestStore<LuaState, LuaValue> {
    var state = app.initialState
    edit(&state)
    let clock = self.clock
    return TestStore(initialState: state) { app.reducer() } withDependencies: {
      $0.continuousClock = clock
    }
  }

  static func todo(_ id: Int64, _ title: String, done: Bool = false, saved: Bool? = nil) -> LuaValue {
    var fields: [LuaString: LuaValue] = ["id": .integer(id), "title": .text(title), "done": .boolean(done)]
    if let saved { fields["saved"] = .boolean(saved) }
    return .table(fields)
  }

  static func wrapped(_ key: String, id: Int64? = nil, _ action: LuaValue) -> LuaValue {
    var fields: [LuaString: LuaValue] = ["type": .text(key), "action": action]
    if let id { fields["id"] = .integer(id) }
    return .table(fields)
  }

  // MARK: Ordering and wrapping

  @Test func aScopedChildRunsBeforeItsParent() async {
    let store = store()
    await store.send(Self.wrapped("counter", ["type": "increment"])) {
      $0.counter = ["count": 1]
      $0.parentSaw = 1
    }
    #expect(harness.errors.isEmpty)
  }

  @Test func forEachRoutesByIDAndTheParentSeesTheWrappedAction() async {
    let store = store()
    await store.send(Self.wrapped("todos", id: 9, ["type": "toggle"])) {
      $0.todos = [Self.todo(7, "milk"), Self.todo(9, "eggs", done: true)]
      $0.lastToggled = 9
      $0.parentSaw = true
    }
    #expect(harness.errors.isEmpty)
  }

  @Test func aChildsEffectSendsItsActionsWrapped() async {
    let store = store()
    await store.send(Self.wrapped("counter", ["type": "startTimer"]))
    await clock.advance(by: .seconds(1))
    await store.receive(Self.wrapped("counter", ["type": "tick"])) { $0.counter = ["count": 10] }
  }

  @Test func aGrandchildsActionsAreWrappedTwice() async {
    let store = store()
    await store.send(["type": "push", "screen": "settings"]) {
      $0.path = [["id": 0, "screen": "settings", "state": ["volume": 5, "counter": ["count": 0]]]]
      $0.pushed = 0
    }
    await store.send(Self.wrapped("path", id: 0, Self.wrapped("counter", ["type": "startTimer"])))
    await clock.advance(by: .seconds(1))
    await store.receive(Self.wrapped("path", id: 0, Self.wrapped("counter", ["type": "tick"]))) {
      $0.path = [["id": 0, "screen": "settings", "state": ["volume": 5, "counter": ["count": 10]]]]
    }
  }

  // MARK: Cancellation ids

  @Test func twoRowsUsingTheSameCancelIDNeverCancelEachOther() async {
    let store = store()
    await store.send(Self.wrapped("todos", id: 7, ["type": "startSave"]))
    await store.send(Self.wrapped("todos", id: 9, ["type": "startSave"]))
    await store.send(Self.wrapped("todos", id: 7, ["type": "cancelSave"]))
    await clock.advance(by: .seconds(1))
    await store.receive(Self.wrapped("todos", id: 9, ["type": "saved"])) {
      $0.todos = [Self.todo(7, "milk"), Self.todo(9, "eggs", saved: true)]
    }
  }

  @Test func aParentsCancelDoesNotReachIntoItsChild() async throws {
    let feature = try harness.load(
      """
      local lunar = require "lunar"
      local fx = lunar.fx
      local Child = lunar.feature {
        name = "Child", initial = {},
        reduce = function(state, action, deps)
          if action.type == "start" then
            return fx.run(function(send) deps.clock.sleep(1); send { type = "done" } end):cancellable("work")
          elseif action.type == "done" then state.done = true end
        end,
      }
      return lunar.feature {
        name = "Parent", initial = { child = {} },
        body = {
          lunar.scope("child", Child),
          lunar.reduce(function(state, action)
            if action.type == "cancel" then return fx.cancel("work") end
          end),
        },
      }
      """, chunkName: "parent.lua")
    let clock = self.clock
    let store = TestStore(initialState: feature.initialState) { feature.reducer() } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(Self.wrapped("child", ["type": "start"]))
    await store.send(["type": "cancel"])
    await clock.advance(by: .seconds(1))
    await store.receive(Self.wrapped("child", ["type": "done"])) { $0.child = ["done": true] }
  }

  // MARK: Cancellation on removal

  @Test func removingAnElementCancelsItsEffects() async {
    let store = store()
    await store.send(Self.wrapped("todos", id: 7, ["type": "startSave"]))
    await store.send(["type": "remove", "id": 7]) { $0.todos = [Self.todo(9, "eggs")] }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func replacingTheWholeArrayCancelsTheRowsThatWent() async {
    let store = store()
    await store.send(Self.wrapped("todos", id: 7, ["type": "startSave"]))
    await store.send(Self.wrapped("todos", id: 9, ["type": "startSave"]))
    await store.send(["type": "clear"]) { $0.todos = .table([:]) }
    await store.send(["type": "add", "id": 9, "title": "eggs again"]) { $0.todos = [Self.todo(9, "eggs again")] }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func settingAPresentedChildToNilCancelsItsEffects() async {
    let store = store()
    await store.send(["type": "open", "title": "a"]) { $0.detail = ["title": "a"] }
    await store.send(Self.wrapped("detail", ["type": "load"]))
    await store.send(["type": "close"]) { $0.detail = nil }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func presentingAnotherIdentityCancelsTheFirstOnesEffects() async {
    let store = store()
    await store.send(["type": "open", "title": "a", "id": 1]) { $0.detail = ["title": "a", "id": 1] }
    await store.send(Self.wrapped("detail", ["type": "load"]))
    await store.send(["type": "open", "title": "b", "id": 2]) { $0.detail = ["title": "b", "id": 2] }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func poppingAStackEntryCancelsItsEffects() async {
    let store = store()
    await store.send(["type": "push", "screen": "detail"]) {
      $0.path = [["id": 0, "screen": "detail", "state": ["title": ""]]]
      $0.pushed = 0
    }
    await store.send(Self.wrapped("path", id: 0, ["type": "load"]))
    await store.send(["type": "pop"]) { $0.path = .table([:]) }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  // MARK: Dismissal

  @Test func dismissRunsTheParentWhileTheChildIsThereThenRemovesIt() async {
    let store = store()
    await store.send(["type": "open", "title": "draft"]) { $0.detail = ["title": "draft"] }
    await store.send(Self.wrapped("detail", ["type": "close"]))
    await store.receive(Self.wrapped("detail", ["type": "dismiss"])) {
      $0.lastTitle = "draft"
      $0.detail = nil
    }
  }

  @Test func dismissingCancelsTheChildsEffects() async {
    let store = store()
    await store.send(["type": "open", "title": "a"]) { $0.detail = ["title": "a"] }
    await store.send(Self.wrapped("detail", ["type": "load"]))
    await store.send(Self.wrapped("detail", ["type": "dismiss"])) {
      $0.lastTitle = "a"
      $0.detail = nil
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func dismissAfterAnEffectEndsIsSentThen() async {
    let store = store()
    await store.send(["type": "open", "title": "a"]) { $0.detail = ["title": "a"] }
    await store.send(Self.wrapped("detail", ["type": "closeLater"]))
    await clock.advance(by: .seconds(1))
    await store.receive(Self.wrapped("detail", ["type": "dismiss"])) {
      $0.lastTitle = "a"
      $0.detail = nil
    }
  }

  @Test func dismissFromAStackEntryPopsItAndTheEntriesAboveIt() async {
    let store = store()
    await store.send(["type": "push", "screen": "settings"]) {
      $0.path = [["id": 0, "screen": "settings", "state": ["volume": 5, "counter": ["count": 0]]]]
      $0.pushed = 0
    }
    await store.send(["type": "push", "screen": "detail", "state": ["title": "x"]]) {
      $0.path = [
        ["id": 0, "screen": "settings", "state": ["volume": 5, "counter": ["count": 0]]],
        ["id": 1, "screen": "detail", "state": ["title": "x"]],
      ]
      $0.pushed = 1
    }
    await store.send(Self.wrapped("path", id: 1, ["type": "load"]))
    await store.send(Self.wrapped("path", id: 0, ["type": "close"]))
    await store.receive(["type": "path", "action": ["type": "popFrom", "id": 0]]) {
      $0.path = .table([:])
      $0.popped = 0
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func stackIDsAreNeverReused() async {
    let store = store()
    await store.send(["type": "push", "screen": "detail"]) {
      $0.path = [["id": 0, "screen": "detail", "state": ["title": ""]]]
      $0.pushed = 0
    }
    await store.send(["type": "pop"]) { $0.path = .table([:]) }
    await store.send(["type": "push", "screen": "detail"]) {
      $0.path = [["id": 1, "screen": "detail", "state": ["title": ""]]]
      $0.pushed = 1
    }
  }
}
