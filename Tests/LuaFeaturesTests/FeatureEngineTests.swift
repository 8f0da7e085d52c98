import Composable
import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// A host that knows features only through ``FeatureEngine``: what an app embedding Lunar writes.
@MainActor
final class EngineHost<Engine: FeatureEngine> {
  let engine: Engine
  private(set) var feature: Engine.Feature
  let reducer: Engine.FeatureReducer
  let store: Store<LuaState, LuaValue>

  init(_ engine: Engine, at location: FeatureLocation) throws(LuaFeatureError) {
    self.engine = engine
    let feature = try engine.load(location)
    let reducer = engine.reducer(for: feature)
    self.feature = feature
    self.reducer = reducer
    store = Store(initialState: engine.initialState(of: feature)) { reducer }
  }

  /// Sends `action` if the engine's gate lets it through; returns the gate's problem otherwise.
  @discardableResult
  func send(_ action: LuaValue) -> String? {
    if let problem = engine.problem(with: action, for: feature) { return problem }
    store.send(action)
    return nil
  }

  func render() throws(LuaFeatureError) -> String? {
    try engine.render(store.state, with: reducer)
  }

  /// Loads the feature again and migrates the running reducer to it.
  func reload() throws(LuaFeatureError) {
    let newer = try engine.reload(feature)
    try engine.migrate(reducer, to: newer)
    feature = newer
  }
}

/// A host written against ``FeatureEngine`` runs Lua features through ``LuaFeatureHost``.
@MainActor
@Suite(.serialized)
final class FeatureEngineTests {
  let folder: URL
  let script: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-engine-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    script = folder.appendingPathComponent("feature.lua")
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  func write(_ text: String) throws {
    try text.write(to: script, atomically: false, encoding: .utf8)
  }

  func host(_ text: String) throws -> EngineHost<LuaFeatureHost> {
    try write(text)
    let engine = try LuaFeatureHost(limits: .init(timePerCall: nil))
    return try EngineHost(engine, at: FeatureLocation(resolving: script.path))
  }

  static func counter(step: Int = 1, view: String = "count: ", extra: String = "") -> String {
    """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Counter",
      initial = { count = 0 },
      actions = { increment = {}, decrement = {} },
      reduce = function(state, action)
        if action.type == "increment" then state.count = state.count + \(step) end
        if action.type == "decrement" then state.count = state.count - \(step) end
      end,
      view = function(state) return "\(view)" .. state.count end,\(extra)
    }
    """
  }

  @Test func aHostWrittenAgainstTheEngineLoadsSendsAndRenders() throws {
    let host = try host(Self.counter())
    #expect(try host.render() == "count: 0")

    host.send(["type": "increment"])
    host.send(["type": "increment"])
    host.send(["type": "decrement"])

    #expect(host.store.state.count == 1)
    #expect(try host.render() == "count: 1")
  }

  @Test func theEnginesGateRefusesAMisspeltActionWithTheNearestDeclaredOne() throws {
    let host = try host(Self.counter())

    let problem = host.send(["type": "incremnt"])

    #expect(problem?.contains(#"unknown action "incremnt" (did you mean "increment"?)"#) == true)
    #expect(host.store.state.count == 0)
    #expect(host.send(["type": "increment"]) == nil)
    #expect(host.store.state.count == 1)
  }

  @Test func aReloadThroughTheEngineMigratesTheKeptStateAndRendersWithTheNewView() throws {
    let host = try host(Self.counter())
    host.send(["type": "increment"])
    host.send(["type": "increment"])
    try write(Self.counter(step: 10, view: "total: ", extra: "\n  migrate = function(state) state.count = state.count * 100 end,"))

    try host.reload()
    host.send(["type": "increment"])

    #expect(host.store.state.count == 210)
    #expect(try host.render() == "total: 210")
  }

  @Test func aMigrationThatFailsThroughTheEngineLeavesTheOldVersionServing() throws {
    let host = try host(Self.counter())
    host.send(["type": "increment"])
    try write(Self.counter(step: 10, extra: "\n  migrate = function(state) state.count = 99; error(\"cannot migrate\") end,"))

    #expect {
      try host.reload()
    } throws: { error in
      (error as? LuaFeatureError)?.kind == .migration && "\(error)".contains("cannot migrate")
    }
    host.send(["type": "increment"])

    #expect(host.store.state.count == 2)
  }

  @Test func theEngineAccountsForTheMemoryItHoldsAndTheLimitsItEnforces() throws {
    let host = try host(Self.counter())
    let engine = host.engine
    let before = engine.usage.memoryInUse
    #expect(before > 0)
    #expect(before == engine.vm.memoryInUse)
    #expect(engine.usage.memoryLimit == engine.vm.limits.memoryBytes)

    try write("""
      local lunar = require "lunar"
      local rows = {}
      for i = 1, 20000 do rows[i] = { id = i, title = "row " .. i } end
      return lunar.feature { name = "Big", initial = { rows = rows }, reduce = function() end }
      """)
    let big = try engine.load(FeatureLocation(resolving: script.path))
    #expect(engine.usage.memoryInUse > before + 20000 * 32)
    _ = big

    engine.limits.memoryBytes = 512 << 20
    #expect(engine.vm.limits.memoryBytes == 512 << 20)
    #expect(engine.usage.memoryLimit == 512 << 20)
  }
}
