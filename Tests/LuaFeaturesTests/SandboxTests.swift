import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// Features run sandboxed: no `io`, `os` or `debug`, no globals shared between features, and a
/// `lunar` module they cannot change.
@MainActor
struct SandboxTests {
  @Test func aFeatureCannotReachIoOsOrDebug() async throws {
    let harness = try FeatureHarness()
    let feature = try harness.load("""
      local lunar = require "lunar"
      return lunar.feature {
        name = "Prober",
        initial = {},
        reduce = function(state)
          state.reach = {
            io = type(io), os = type(os), debug = type(debug), package = type(package),
            dofile = type(dofile), loadfile = type(loadfile),
            -- the library shims only: what libraries read when they load
            open = type(io.open), execute = type(os.execute), remove = type(os.remove), loadlib = type(package.loadlib),
          }
        end,
      }
      """)
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": "probe"]) {
      $0.reach = [
        "io": "table", "os": "table", "debug": "nil", "package": "table", "dofile": "nil", "loadfile": "nil",
        "open": "nil", "execute": "nil", "remove": "nil", "loadlib": "nil",
      ]
    }
  }

  static func writer(_ name: String) -> String {
    """
    local lunar = require "lunar"
    leaked = "\(name) at load"
    return lunar.feature {
      name = "\(name)",
      initial = {},
      reduce = function(state, action)
        if action.type == "write" then
          alsoLeaked = "\(name) in reduce"
        else
          state.seen = tostring(leaked) .. ", " .. tostring(alsoLeaked)
        end
      end,
    }
    """
  }

  @Test func twoFeaturesInOneHostCannotSeeEachOthersGlobals() async throws {
    let harness = try FeatureHarness()
    let a = try harness.load(Self.writer("A"), chunkName: "a.lua")
    let b = try harness.load(Self.writer("B"), chunkName: "b.lua")
    let storeA = TestStore(initialState: a.initialState) { a.reducer() }
    let storeB = TestStore(initialState: b.initialState) { b.reducer() }
    await storeA.send(["type": "write"])
    await storeB.send(["type": "read"]) { $0.seen = "B at load, nil" }
    await storeA.send(["type": "read"]) { $0.seen = "A at load, A in reduce" }
  }

  @Test func aFeatureCannotRequireThePreludesPrivateModules() throws {
    let harness = try FeatureHarness()
    let privateModules = Prelude.files.map(Prelude.moduleName(of:)).filter { $0.hasPrefix("lunar._") } + ["lunar._core"]
    #expect(privateModules.contains("lunar._host"))
    for name in privateModules {
      #expect {
        try harness.load("local host = require \"\(name)\"\nreturn host", chunkName: "prober.lua")
      } throws: { error in
        "\(error)".contains("prober.lua:1: module '\(name)' not found: no host module '\(name)'")
      }
    }
  }

  @Test func lunarAndLunarFxAreReadOnly() throws {
    let harness = try FeatureHarness()
    for (statement, message) in [
      ("lunar.feature = nil", #"lunar is read-only (tried to set "feature")"#),
      ("lunar.fx.none = 1", #"lunar.fx is read-only (tried to set "none")"#),
      ("lunar.fx.none.kind = 'send'", "effects cannot be changed"),
    ] {
      #expect {
        try harness.load("""
          local lunar = require "lunar"
          \(statement)
          """, chunkName: "vandal.lua")
      } throws: { error in
        "\(error)".contains("vandal.lua:2: \(message)")
      }
    }
  }

  @Test func rawsetOnLunarCannotReachAnotherFeature() async throws {
    let harness = try FeatureHarness()
    _ = try? harness.load("""
      local lunar = require "lunar"
      rawset(lunar, "feature", function() error("hijacked") end)
      rawset(lunar.fx, "send", function() error("hijacked") end)
      rawset(lunar.fx.none, "kind", "send")
      return lunar.feature { name = "Vandal", initial = {}, reduce = function() end }
      """, chunkName: "vandal.lua")
    let victim = try harness.load("""
      local lunar = require "lunar"
      local fx = lunar.fx
      return lunar.feature {
        name = "Victim",
        initial = { count = 0 },
        reduce = function(state, action)
          if action.type == "ping" then return fx.send { type = "pong" } end
          state.count = state.count + 1
          return fx.none
        end,
      }
      """, chunkName: "victim.lua")
    let store = TestStore(initialState: victim.initialState) { victim.reducer() }
    await store.send(["type": "ping"])
    await store.receive(["type": "pong"]) { $0.count = 1 }
    #expect(harness.errors.isEmpty)
  }
}
