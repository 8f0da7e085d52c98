import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// Hot reload of a running store: scripts rewritten on disk while it runs.
@MainActor
@Suite(.serialized)
struct HotReloadTests {
  @Test func aChangedReducerServesTheNextActionWithTheStateKept() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    fixture.send("increment")
    fixture.send("increment")
    try fixture.write("feature.lua", counterScript(step: 10))
    let event = try await fixture.event(0)
    #expect(event.succeeded)
    #expect(event.changedFiles.map(\.lastPathComponent) == ["feature.lua"])
    fixture.send("increment")
    #expect(fixture.store.state.count == 12)
    #expect(try fixture.reducer.residentState() == fixture.store.state.value)
  }

  @Test func aBrokenScriptIsReportedWithItsLineAndTheOldReducerKeepsServing() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    fixture.send("increment")
    try fixture.write("feature.lua", counterScript(step: 1).replacingOccurrences(of: "+ 1 end", with: "+ end"))
    let event = try await fixture.event(0)
    let error = try #require(event.error)
    #expect(error.kind == .load)
    #expect(error.file == "feature.lua")
    #expect(error.line == 6)
    fixture.send("increment")
    #expect(fixture.store.state.count == 2)

    try fixture.write("feature.lua", counterScript(step: 5))
    #expect(try await fixture.event(1).succeeded)
    fixture.send("increment")
    #expect(fixture.store.state.count == 7)
  }

  @Test func aTruncatedWriteIsRejectedAndTheCompleteWriteThatFollowsApplies() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    fixture.send("increment")
    let text = counterScript(step: 3)
    try fixture.write("feature.lua", String(text.prefix(text.count / 2)))
    let truncated = try await fixture.event(0)
    #expect(truncated.error?.file == "feature.lua")
    fixture.send("increment")
    #expect(fixture.store.state.count == 2)

    try fixture.write("feature.lua", text)
    #expect(try await fixture.event(1).succeeded)
    fixture.send("increment")
    #expect(fixture.store.state.count == 5)
  }

  @Test func aWriterThatPausesMidFileEndsWithTheCompleteText() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    let text = Data(counterScript(step: 4).utf8)
    let handle = try FileHandle(forWritingTo: fixture.url("feature.lua"))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: text.prefix(text.count / 2))
    try await Task.sleep(for: .milliseconds(60))
    try handle.write(contentsOf: text.dropFirst(text.count / 2))
    try handle.close()
    while fixture.events.last?.succeeded != true { _ = try await fixture.event(fixture.events.count) }
    fixture.send("increment")
    #expect(fixture.store.state.count == 4)
  }

  @Test func aBurstOfTenSavesReloadsOnceWithTheLastText() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)], quietPeriod: .milliseconds(150))
    for step in 11...20 { try fixture.write("feature.lua", counterScript(step: step)) }
    #expect(try await fixture.event(0).succeeded)
    try await fixture.settle()
    #expect(fixture.events.count == 1)
    fixture.send("increment")
    #expect(fixture.store.state.count == 20)
  }

  @Test func aSaveByRenameOverTheFileReloads() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    fixture.send("increment")
    try fixture.renameOver("feature.lua", counterScript(step: 100))
    #expect(try await fixture.event(0).succeeded)
    fixture.send("increment")
    #expect(fixture.store.state.count == 101)
    // NB: the new file has a new inode; the folder watch still sees the next save.
    try fixture.renameOver("feature.lua", counterScript(step: 1000))
    #expect(try await fixture.event(1).succeeded)
    fixture.send("increment")
    #expect(fixture.store.state.count == 1101)
  }

  @Test func aChangedRequiredModuleReloadsWithoutAStaleCopy() async throws {
    let feature = """
      local lunar = require "lunar"
      local step = require "step"
      return lunar.feature {
        name = "Counter",
        initial = { count = 0 },
        reduce = function(state, action)
          if action.type == "increment" then state.count = state.count + step.size end
        end,
      }
      """
    let fixture = try ReloadFixture(["feature.lua": feature, "step.lua": "return { size = 1 }"])
    #expect(Set(fixture.feature.loadedFiles.map(\.lastPathComponent)) == ["feature.lua", "step.lua"])
    fixture.send("increment")
    try fixture.write("step.lua", "return { size = 7 }")
    let event = try await fixture.event(0)
    #expect(event.succeeded)
    #expect(event.changedFiles.map(\.lastPathComponent) == ["step.lua"])
    fixture.send("increment")
    #expect(fixture.store.state.count == 8)
  }

  @Test func aChangedChildModuleReloadsThatChildInsideItsParent() async throws {
    let parent = """
      local lunar = require "lunar"
      local Counter = require "counter"
      return lunar.feature {
        name = "App",
        initial = { counter = { count = 0 }, title = "app" },
        body = { lunar.scope("counter", Counter) },
      }
      """
    let fixture = try ReloadFixture(["feature.lua": parent, "counter.lua": counterScript(step: 1)])
    let increment: LuaValue = ["type": "counter", "action": ["type": "increment"]]
    fixture.store.send(increment)
    try fixture.write("counter.lua", counterScript(step: 5))
    let event = try await fixture.event(0)
    #expect(event.succeeded, "\(String(describing: event.error))")
    #expect(event.changedFiles.map(\.lastPathComponent) == ["counter.lua"])
    fixture.store.send(increment)
    #expect(fixture.store.state.value == ["counter": ["count": 6], "title": "app"])
  }

  @Test func migrateAdaptsTheKeptStateToTheNewShape() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    fixture.send("increment")
    fixture.send("increment")
    try fixture.write("feature.lua", """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Counter",
        initial = { total = 0, history = {} },
        reduce = function(state, action)
          if action.type == "increment" then
            state.total = state.total + 1
            state.history[#state.history + 1] = state.total
          end
        end,
        migrate = function(state)
          state.total = state.count
          state.count = nil
          state.history = {}
        end,
      }
      """)
    #expect(try await fixture.event(0).succeeded)
    fixture.send("increment")
    #expect(fixture.store.state.value == ["total": 3, "history": [3]])
    #expect(try fixture.reducer.residentState() == fixture.store.state.value)
  }

  @Test func aFailingMigrateKeepsTheOldStateAndReducer() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    fixture.send("increment")
    let migrate = """

        migrate = function(state)
          state.count = nil
          state.other = "half done"
          error("cannot migrate")
        end,
      """
    try fixture.write("feature.lua", counterScript(step: 50, extra: migrate))
    let event = try await fixture.event(0)
    let error = try #require(event.error)
    #expect(error.kind == .migration)
    #expect(error.file == "feature.lua")
    #expect(error.line == 11)
    #expect(error.message.contains("cannot migrate"))
    fixture.send("increment")
    #expect(fixture.store.state.value == ["count": 2])
    #expect(try fixture.reducer.residentState() == ["count": 2])
  }

  @Test func effectsInFlightAtTheSwapFinishWithTheOldCode() async throws {
    let gate = Gate()
    var dependencies = LuaDependencies.builtIn
    dependencies.register("gate.wait", .async { _ in
      await gate.wait()
      return .nil
    })
    func script(_ version: String) -> String {
      """
      local lunar = require "lunar"
      local fx = lunar.fx
      return lunar.feature {
        name = "Log",
        initial = { log = "" },
        reduce = function(state, action, deps)
          if action.type == "start" then
            return fx.run(function(send)
              deps.gate.wait()
              send { type = "done", by = "\(version)" }
            end)
          elseif action.type == "done" then
            state.log = state.log .. action.by .. " reduced by \(version); "
          end
        end,
      }
      """
    }
    let fixture = try ReloadFixture(["feature.lua": script("v1")], dependencies: dependencies)
    let task = fixture.send("start")
    try fixture.write("feature.lua", script("v2"))
    #expect(try await fixture.event(0).succeeded)
    gate.open()
    await task.finish()
    #expect(fixture.store.state.log == "v1 reduced by v2; ")
  }

  @Test func theNewCodeCancelsAnEffectTheOldCodeStarted() async throws {
    let gate = Gate()
    var dependencies = LuaDependencies.builtIn
    dependencies.register("gate.wait", .async { _ in
      await gate.wait()
      return .nil
    })
    func script(stop: String) -> String {
      """
      local lunar = require "lunar"
      local fx = lunar.fx
      return lunar.feature {
        name = "Log",
        initial = { log = "" },
        reduce = function(state, action, deps)
          if action.type == "start" then
            return fx.run(function(send)
              deps.gate.wait()
              send { type = "done" }
            end):cancellable("job")
          elseif action.type == "stop" then
            return \(stop)
          elseif action.type == "done" then
            state.log = "done"
          end
        end,
      }
      """
    }
    let fixture = try ReloadFixture(["feature.lua": script(stop: "fx.none")], dependencies: dependencies)
    let task = fixture.send("start")
    try fixture.write("feature.lua", script(stop: "fx.cancel(\"job\")"))
    #expect(try await fixture.event(0).succeeded)
    fixture.send("stop")
    gate.open()
    await task.finish()
    #expect(fixture.store.state.log == "")
  }

  @Test func pollingFindsChangesWhereInotifyIsNotUsed() async throws {
    let fixture = try ReloadFixture(
      ["feature.lua": counterScript(step: 1)], mechanism: .polling(interval: .milliseconds(20))
    )
    #expect(!fixture.reloader.watcher.usesInotify)
    fixture.send("increment")
    try fixture.renameOver("feature.lua", counterScript(step: 9))
    #expect(try await fixture.event(0).succeeded)
    fixture.send("increment")
    #expect(fixture.store.state.count == 10)
  }

  @Test func aSaveWithTheSameTextDoesNotReload() async throws {
    let fixture = try ReloadFixture(["feature.lua": counterScript(step: 1)])
    try fixture.write("feature.lua", counterScript(step: 1))
    try await fixture.settle()
    #expect(fixture.events.isEmpty)
    try fixture.write("feature.lua", counterScript(step: 2))
    #expect(try await fixture.event(0).succeeded)
  }
}

/// Swapping through the Swift API alone, without files.
@MainActor
struct ReducerSwapTests {
  @Test func migrateBeforeTheFirstActionRunsOnThatActionsState() throws {
    let harness = try FeatureHarness()
    let old = try harness.load(counterScript(step: 1))
    let reducer = old.reducer()
    let store = Store(initialState: LuaState(["count": 5])) { reducer }
    let migrate = "\n  migrate = function(state) state.count = state.count * 100 end,"
    try reducer.swap(to: try harness.load(counterScript(step: 1, extra: migrate)))
    store.send(["type": "increment"])
    #expect(store.state.value == ["count": 501])
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func aDeferredMigrateThatFailsRestoresTheOldVersion() throws {
    let harness = try FeatureHarness()
    let old = try harness.load(counterScript(step: 1))
    let reducer = old.reducer()
    let store = Store(initialState: old.initialState) { reducer }
    let migrate = "\n  migrate = function(state) state.count = 'x'; error('no') end,"
    try reducer.swap(to: try harness.load(counterScript(step: 10, extra: migrate)))
    store.send(["type": "increment"])
    #expect(store.state.value == ["count": 1])
    #expect(harness.takeErrors().map(\.kind) == [.migration])
    #expect(reducer.feature === old)
  }

  @Test func aFeatureOfAnotherHostIsRefused() throws {
    let harness = try FeatureHarness()
    let other = try FeatureHarness()
    let reducer = try harness.load(counterScript(step: 1)).reducer()
    #expect(throws: LuaFeatureError.self) { try reducer.swap(to: try other.load(counterScript(step: 2))) }
  }
}

/// An asynchronous dependency that waits until the test opens it.
final class Gate: @unchecked Sendable {
  private let lock = NSLock()
  private var isOpen = false

  func open() { lock.withLock { isOpen = true } }

  func wait() async {
    while !lock.withLock({ isOpen }) { try? await Task.sleep(for: .milliseconds(2)) }
  }
}
