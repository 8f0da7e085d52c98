import Foundation
import LuaBridge
import LuaFeatures
import LunarPlugins
import Testing

/// Loading, reloading and unloading plugins while the host runs.
@MainActor
struct LifecycleTests {
  @Test func loadingAFolderLoadsEachPluginAndReportsTheOnesThatFail() throws {
    let harness = try PluginHarness()
    try harness.folders.plugin("a", ["feature.lua": counterFeature])
    try harness.folders.plugin("b", ["plugin.lua": manifest("b", api: 9), "feature.lua": counterFeature])
    try harness.folders.plugin("c", ["plugin.lua": manifest("c", "  capabilities = { camera = true },"), "feature.lua": counterFeature])
    try harness.folders.plugin("d", ["feature.lua": "return 42"])

    let results = harness.host.loadAll(in: harness.folders.root)

    #expect(results.count == 4)
    #expect(harness.host.all.map(\.name) == ["a"])
    #expect(harness.events == ["loaded a", "failed b", "failed c", "failed d"])
    let errors = results.compactMap { result -> PluginError? in
      if case let .failure(error) = result { return error } else { return nil }
    }
    #expect(errors.map(\.kind) == [.api, .unavailable, .feature])
    #expect(errors[1].description == "plugin c: plugin.lua:6: it asks for the capability camera, which this host does not offer (it offers: greeting, slow, storage)")
    #expect(errors[2].message.contains("must return lunar.feature"), "\(errors[2])")
  }

  @Test func twoPluginsCannotShareAName() throws {
    let harness = try PluginHarness()
    try harness.load("one", ["plugin.lua": manifest("same"), "feature.lua": counterFeature])
    #expect(throws: PluginError.self) { try harness.load("two", ["plugin.lua": manifest("same"), "feature.lua": counterFeature]) }
    #expect(harness.host.all.map(\.folder.lastPathComponent) == ["one"])
  }

  @Test func aReloadKeepsTheStateAndRunsTheNewCode() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("counter", ["feature.lua": counterFeature])
    plugin.send(["type": "increment"])
    try harness.folders.plugin("counter", [
      "feature.lua": counterFeature
        .replacingOccurrences(of: "state.count + 1", with: "state.count + 10")
        .replacingOccurrences(of: "view = function", with: "migrate = function(state) state.migrated = true end,\n  view = function"),
      "plugin.lua": manifest("counter", version: "2.0.0"),
    ])

    try harness.host.reload("counter")
    plugin.send(["type": "increment"])

    #expect(plugin.state.count == 11)
    #expect(plugin.state.migrated == true)
    #expect(plugin.manifest.version == "2.0.0")
    #expect(harness.events == ["loaded counter", "reloaded counter"])
  }

  @Test func aReloadThatFailsLeavesTheOldVersionServing() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("counter", ["feature.lua": counterFeature])
    plugin.send(["type": "increment"])

    try harness.folders.plugin("counter", ["feature.lua": "local lunar = require \"lunar\"\nreturn lunar.feature {\n  name = \n}\n"])
    #expect(throws: PluginError.self) { try harness.host.reload("counter") }
    try harness.folders.plugin("counter", [
      "feature.lua": counterFeature.replacingOccurrences(of: "view = function", with: "migrate = function() error(\"no\") end,\n  view = function"),
    ])
    #expect(throws: PluginError.self) { try harness.host.reload("counter") }
    try harness.folders.plugin("counter", ["plugin.lua": manifest("renamed"), "feature.lua": counterFeature])
    #expect(throws: PluginError.self) { try harness.host.reload("counter") }
    plugin.send(["type": "increment"])

    #expect(plugin.state.count == 2)
    #expect(plugin.status == .running)
    #expect(harness.events == ["loaded counter", "reload failed counter", "reload failed counter", "reload failed counter"])
  }

  @Test func aReloadAppliesTheNewGrants() async throws {
    let harness = try PluginHarness()
    let greeter = """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Greeter", initial = {},
        reduce = function(state, action, deps)
          local ok, result = pcall(deps.greeting.make, "Ada")
          state.result = tostring(result)
        end,
      }
      """
    let plugin = try harness.load("greeter", ["plugin.lua": manifest("greeter"), "feature.lua": greeter])
    plugin.send(["type": "greet"])
    #expect(plugin.state.result.stringValue?.contains("plugin greeter was not granted greeting") == true)

    try harness.folders.plugin("greeter", ["plugin.lua": manifest("greeter", "  capabilities = { greeting = true },")])
    try harness.host.reload("greeter")
    plugin.send(["type": "greet"])

    #expect(plugin.state.result == "Hello, Ada!")
    #expect(plugin.grants.capabilities == PluginCapabilities(["greeting"]))
  }

  @Test func sessionsShareThePluginsVMAndKeepTheirOwnState() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("counter", ["feature.lua": counterFeature])
    let one = plugin.makeSession()
    let two = plugin.makeSession()

    one.send(["type": "increment"])
    two.send(["type": "increment"])
    two.send(["type": "increment"])

    #expect(one.state.count == 1)
    #expect(two.state.count == 2)
    #expect(plugin.state.count == 0)
    #expect(plugin.accounting.actions == 3)
    #expect(plugin.accounting.sessions == 3)
  }

  @Test func accountingShowsTheMemoryLimitTheGrantsSetAndFollowsAReload() throws {
    let harness = try PluginHarness(limits: .init(memoryBytes: 96 << 20, timePerCall: nil))
    let plugin = try harness.load("counter", ["feature.lua": counterFeature])
    #expect(plugin.accounting.memoryLimit == 96 << 20)
    #expect(plugin.accounting.memoryInUse == plugin.luaHost.vm.memoryInUse)

    harness.host.limits.memoryBytes = 128 << 20
    try harness.host.reload("counter")

    #expect(plugin.accounting.memoryLimit == 128 << 20)
    #expect(plugin.luaHost.vm.limits.memoryBytes == 128 << 20)
  }

  @Test func accountingCountsActionsTimeMemoryEffectsAndErrors() async throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("waiter", [
      "plugin.lua": manifest("waiter", "  capabilities = { slow = true },"), "feature.lua": misbehaving("Waiter"),
    ])
    #expect(plugin.accounting.p50 == nil)

    for _ in 1...10 { plugin.send(["type": "increment"]) }
    plugin.send(["type": "boom"])
    plugin.send(["type": "wait"])

    let cost = plugin.accounting
    #expect(cost.actions == 12)
    #expect(cost.errors == 1)
    #expect(cost.lastError?.hasSuffix("boom") == true)
    #expect(cost.effectsRunning == 1)
    #expect(cost.memoryInUse > 10_000)
    let p50 = try #require(cost.p50)
    let p99 = try #require(cost.p99)
    #expect(p50 > .zero && p50 <= p99)
    await harness.host.unload("waiter")
  }

  @Test func aPluginsPrintsAndErrorsCarryItsName() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("talker", [
      "feature.lua": counterFeature.replacingOccurrences(
        of: "if action.type == \"increment\"", with: "print(\"got \" .. action.type)\n    if action.type == \"increment\""),
    ])
    plugin.send(["type": "increment"])
    #expect(harness.events.last == "printed talker: got increment")
  }

  @Test func aPluginsWarningIsAnEventCarryingItsName() throws {
    let harness = try PluginHarness()
    let plugin = try harness.load("forgetful", [
      "feature.lua": counterFeature.replacingOccurrences(
        of: "if action.type == \"increment\"", with: "lunar.fx.run(function() end)\n    if action.type == \"increment\""),
    ])
    plugin.send(["type": "increment"])
    #expect(harness.events.last == """
      warning forgetful: warning: feature.lua:6: an effect (fx.run) was built but not returned, so it never runs: \
      `return` it from the reducer, or combine several with fx.merge(…)
      """)
    #expect(plugin.state.count == 1)
  }
}
