import ComposableTesting
import Dependencies
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// `deps`: built-in clients follow swift-dependencies overrides, and misuse is named clearly.
@MainActor
struct DependencyTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    return lunar.feature {
      name = "Deps",
      initial = {},
      reduce = function(state, action, deps)
        if action.type == "stamp" then
          state.id = deps.uuid()
          state.at = deps.now()
        elseif action.type == "unknown" then
          state.weather = deps.weather.today() -- unknown dependency
        elseif action.type == "badSyncArgument" then
          state.doubled = deps.calc.double("three") -- bad sync argument
        elseif action.type == "badAsyncArgument" then
          return fx.run(function(send)
            local ok, message = pcall(deps.numbers.fetch, "three")
            send { type = "failed", message = message }
          end)
        elseif action.type == "failed" then
          state.message = action.message
        end
      end,
    }
    """

  func makeStore(_ harness: FeatureHarness) throws -> TestStore<LuaState, LuaValue> {
    let feature = try harness.load(Self.source, chunkName: "deps.lua")
    return TestStore(initialState: feature.initialState) {
      feature.reducer()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 1234.5))
    }
  }

  static var dependencies: LuaDependencies {
    var dependencies = LuaDependencies.testing()
    dependencies.sync("calc.double") { (n: Int) -> Int in n * 2 }
    return dependencies
  }

  @Test func uuidAndNowFollowSwiftDependencyOverrides() async throws {
    let store = try makeStore(FeatureHarness(dependencies: Self.dependencies))
    await store.send(["type": "stamp"]) {
      $0.id = "00000000-0000-0000-0000-000000000000"
      $0.at = 1234.5
    }
    await store.send(["type": "stamp"]) {
      $0.id = "00000000-0000-0000-0000-000000000001"
    }
  }

  @Test func anUnknownDependencyListsTheOnesThatExist() async throws {
    let harness = try FeatureHarness(dependencies: Self.dependencies)
    let store = try makeStore(harness)
    await store.send(["type": "unknown"])
    let error = try #require(harness.errors.first)
    #expect(error.message.contains(#"deps has no "weather" (it has: calc, clock, now, numbers, probe, uuid)"#))
    #expect(error.location == "deps.lua:\(line(of: "-- unknown dependency", in: Self.source)!)")
  }

  @Test func aSyncArgumentThatDoesNotDecodeNamesTheDependency() async throws {
    let harness = try FeatureHarness(dependencies: Self.dependencies)
    let store = try makeStore(harness)
    await store.send(["type": "badSyncArgument"])
    let error = try #require(harness.errors.first)
    #expect(error.kind == .reducer)
    #expect(error.message.contains("deps.calc.double bad argument #1"))
    #expect(error.location == "deps.lua:\(line(of: "-- bad sync argument", in: Self.source)!)")
  }

  @Test func anAsyncArgumentThatDoesNotDecodeNamesTheDependency() async throws {
    let harness = try FeatureHarness(dependencies: Self.dependencies)
    let store = try makeStore(harness)
    store.exhaustivity = .off
    await store.send(["type": "badAsyncArgument"])
    await store.receive({ $0[LuaString("type")] == "failed" })
    let message = try #require(store.state.message.stringValue)
    #expect(message.contains("deps.numbers.fetch bad argument #1"))
  }
}
