import Foundation
import LuaBridge
import LuaFeatures
import LunarPlugins
import Testing

/// One plugin's failure never disturbs another: each runs in its own VM with its own limits.
@MainActor
struct IsolationTests {
  /// Loads `counter` and the misbehaving plugin `name`, counts to two in both, and returns them.
  func twoPlugins(_ harness: PluginHarness, _ name: String) throws -> (counter: Plugin, other: Plugin) {
    let counter = try harness.load("counter", ["feature.lua": misbehaving("Counter")])
    let other = try harness.load(name, ["feature.lua": misbehaving(name)])
    for plugin in [counter, other] {
      plugin.send(["type": "increment"])
      plugin.send(["type": "increment"])
    }
    return (counter, other)
  }

  @Test func aPluginThatLoopsLeavesTheOthersServing() throws {
    let harness = try PluginHarness(limits: .init(instructionsPerCall: 1_000_000, timePerCall: nil))
    let (counter, looper) = try twoPlugins(harness, "looper")

    looper.send(["type": "spin"])

    let (plugin, error) = try #require(harness.errors.first)
    #expect(plugin == "looper")
    #expect(error.luaKind == .instructionLimit)
    #expect(looper.state.count == 2)
    counter.send(["type": "increment"])
    looper.send(["type": "increment"])
    #expect(counter.state.count == 3)
    #expect(looper.state.count == 3)
  }

  @Test func aPluginThatLoopsPastItsTimeLimitLeavesTheOthersServing() throws {
    let harness = try PluginHarness(limits: .init(instructionsPerCall: nil, timePerCall: .milliseconds(50)))
    let (counter, looper) = try twoPlugins(harness, "looper")

    looper.send(["type": "spin"])

    #expect(harness.errors.map(\.error.luaKind) == [.timeLimit])
    counter.send(["type": "increment"])
    #expect(counter.state.count == 3)
    #expect(looper.state.count == 2)
  }

  @Test func aPluginThatRaisesLeavesTheOthersServing() throws {
    let harness = try PluginHarness()
    let (counter, raiser) = try twoPlugins(harness, "raiser")

    raiser.send(["type": "boom"])

    #expect(harness.errors.map(\.plugin) == ["raiser"])
    #expect(harness.errors.first?.error.message.hasSuffix("boom") == true)
    #expect(raiser.state.count == 2)
    counter.send(["type": "increment"])
    #expect(counter.state.count == 3)
    #expect(raiser.accounting.errors == 1)
    #expect(counter.accounting.errors == 0)
  }

  @Test func aPluginThatExhaustsItsMemoryLeavesTheOthersServing() throws {
    let policy = PluginPolicy { manifest, proposed in
      var grants = proposed
      if manifest.name == "hungry" { grants.limits.memoryBytes = 16 << 20 }
      return grants
    }
    let harness = try PluginHarness(policy: policy, limits: .init(instructionsPerCall: nil, timePerCall: nil))
    let (counter, hungry) = try twoPlugins(harness, "hungry")
    #expect(hungry.grants.limits.memoryBytes == 16 << 20)
    #expect(counter.grants.limits.memoryBytes == 512 << 20)

    hungry.send(["type": "hog"])

    #expect(harness.errors.map(\.error.luaKind) == [.memory])
    #expect(harness.errors.map(\.plugin) == ["hungry"])
    #expect(hungry.state.count == 2)
    counter.send(["type": "increment"])
    hungry.send(["type": "increment"])
    #expect(counter.state.count == 3)
    #expect(hungry.state.count == 3)
  }

  @Test func aPluginUnloadedMidEffectLeavesTheOthersServing() async throws {
    let harness = try PluginHarness()
    let manifestAskingForSlow = manifest("waiter", "  capabilities = { slow = true },")
    let counter = try harness.load("counter", ["feature.lua": misbehaving("Counter")])
    var waiter: Plugin? = try harness.load("waiter", ["plugin.lua": manifestAskingForSlow, "feature.lua": misbehaving("Waiter")])
    counter.send(["type": "wait"])   // asks for slow.wait without the grant: fails at once
    waiter!.send(["type": "wait"])
    #expect(waiter!.accounting.effectsRunning == 1)
    weak let vm = waiter!.luaHost.vm

    let ended = await harness.host.unload("waiter", timeout: .seconds(60))
    waiter = nil

    #expect(ended)
    #expect(harness.host["waiter"] == nil)
    #expect(vm == nil, "the unloaded plugin's VM was freed")
    counter.send(["type": "increment"])
    #expect(counter.state.count == 1)
    #expect(harness.events.suffix(2) == ["error counter", "unloaded waiter"])
    let refused = try #require(harness.errors.first?.error)
    #expect(refused.message.contains("plugin counter was not granted slow: it has no plugin.lua"), "\(refused)")
  }

  @Test func anUnloadedPluginRefusesActions() async throws {
    let harness = try PluginHarness()
    let counter = try harness.load("counter", ["feature.lua": misbehaving("Counter")])
    let session = counter.makeSession()
    counter.send(["type": "increment"])

    await harness.host.unload("counter")
    counter.send(["type": "increment"])
    session.send(["type": "increment"])

    #expect(counter.status == .unloaded)
    #expect(counter.state.count == 1)
    #expect(session.state.count == 0)
  }
}
