import Composable
import ConcurrencyExtras
import Foundation
import IssueReporting
import LuaBridge
@testable import LuaFeatures
import Testing

private final class WarningLog: IssueReporter {
  let entries = LockIsolated<[(message: String, severity: IssueSeverity)]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let message = message() ?? ""
    entries.withValue { $0.append((message, severity)) }
  }
}

/// `lunar.shared`: values declared by features, seen by every store of the host that declares the
/// same key, persisted per strategy (`Fixtures/shared`).
@MainActor
struct LuaSharedTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/shared")

  static func counter(_ name: String, key: String = "count", storage: String = "memory", defaultValue: String = "0") -> String {
    """
    local lunar = require "lunar"
    return lunar.feature {
      name = "\(name)",
      initial = { local_ = 0 },
      shared = { count = lunar.shared("\(key)", { default = \(defaultValue), storage = "\(storage)" }) },
      reduce = function(state, action)
        if action.type == "increment" then state.count = state.count + 1 end
        if action.type == "touch" then state.local_ = state.local_ + 1 end
      end,
    }
    """
  }

  func send(_ store: Store<LuaState, LuaValue>, _ type: String) {
    store.send(["type": .text(type)])
  }

  @Test func inMemoryValuesAreSeenByEveryFeatureDeclaringTheKey() throws {
    let harness = try FeatureHarness()
    let a = try harness.load(Self.counter("A"), chunkName: "a.lua")
    let b = try harness.load(Self.counter("B"), chunkName: "b.lua")
    let storeA = makeStore(a.reducer(), state: a.initialState)
    let storeB = makeStore(b.reducer(), state: b.initialState)
    #expect(storeA.state.count == 0)
    send(storeA, "increment")
    send(storeA, "increment")
    #expect(storeA.state.count == 2)
    #expect(storeB.state.count == 0)   // idle: refreshed on its next action
    send(storeB, "touch")
    #expect(storeB.state.count == 2)
    send(storeB, "increment")
    send(storeA, "touch")
    #expect(storeA.state.count == 3)
    #expect(harness.host.shared.value(forKey: "count") == 3)
    // A store created now starts from the current value.
    #expect(a.initialState.count == 3)
    #expect(harness.takeErrors().isEmpty)
  }

  @Test func theSnapshotFollowsTheResidentTableAfterAPull() throws {
    let harness = try FeatureHarness()
    let a = try harness.load(Self.counter("A"), chunkName: "a.lua")
    let b = try harness.load(Self.counter("B"), chunkName: "b.lua")
    let reducerB = b.reducer()
    let storeA = makeStore(a.reducer(), state: a.initialState)
    let storeB = makeStore(reducerB, state: b.initialState)
    send(storeB, "touch")
    send(storeA, "increment")
    send(storeB, "touch")
    #expect(try reducerB.residentState() == storeB.state.value)
    #expect(storeB.state.count == 1 && storeB.state.local_ == 2)
  }

  @Test func fileValuesPersistAcrossAFreshHost() throws {
    let storage = FileStorage.inMemory()
    let harness = try FeatureHarness()
    harness.host.shared.reset(fileStorage: storage)
    let a = try harness.load(Self.counter("A", storage: "file"))
    let store = makeStore(a.reducer(), state: a.initialState)
    send(store, "increment")
    send(store, "increment")
    let url = harness.host.shared.folder.appendingPathComponent("count.json")
    let saved = try #require(try storage.load(url))
    #expect(String(decoding: saved, as: UTF8.self).contains("2"))

    let fresh = try FeatureHarness()
    fresh.host.shared.reset(fileStorage: storage)
    let again = try fresh.load(Self.counter("A", storage: "file"))
    #expect(again.initialState.count == 2)
  }

  @Test func memoryValuesDoNotPersist() throws {
    let storage = FileStorage.inMemory()
    let harness = try FeatureHarness()
    harness.host.shared.reset(fileStorage: storage)
    let a = try harness.load(Self.counter("A"))
    send(makeStore(a.reducer(), state: a.initialState), "increment")
    let fresh = try FeatureHarness()
    fresh.host.shared.reset(fileStorage: storage)
    #expect(try fresh.load(Self.counter("A")).initialState.count == 0)
  }

  @Test func aCorruptFileGivesTheDefaultWithAWarning() throws {
    let harness = try FeatureHarness()
    let path = harness.host.shared.folder.appendingPathComponent("count.json").path
    harness.host.shared.reset(fileStorage: .inMemory([path: Data("{ not json".utf8)]))
    let log = WarningLog()
    let feature = try harness.load(Self.counter("A", storage: "file", defaultValue: "7"))
    let state = withIssueReporters([log]) { feature.initialState }
    #expect(state.count == 7)
    let warning = try #require(log.entries.value.first)
    #expect(warning.severity == .warning)
    #expect(warning.message.hasPrefix("\(path) cannot be used (value: expected a key (a string in double quotes), found 'n' (at byte 2 of the text)); it was renamed to \(path).corrupt-"))
  }

  @Test func conflictingDeclarationsAreALoadError() throws {
    let harness = try FeatureHarness()
    _ = try harness.load(Self.counter("A"), chunkName: "a.lua")
    let storageError = #expect(throws: LuaFeatureError.self) {
      try harness.load(Self.counter("B", storage: "file"), chunkName: "b.lua")
    }
    #expect(storageError?.kind == .load)
    #expect(storageError?.message.contains(#"lunar.shared("count") is declared with storage "file", but A declared it with storage "memory""#) == true)
    let shapeError = #expect(throws: LuaFeatureError.self) {
      try harness.load(Self.counter("C", defaultValue: "{ n = 0 }"), chunkName: "c.lua")
    }
    #expect(shapeError?.message.contains("has a default of shape { n: number }, but A declared it with a default of shape number") == true)
    // The same declaration again is fine; and a feature may change its own (a hot reload).
    _ = try harness.load(Self.counter("D"), chunkName: "d.lua")
    let other = try FeatureHarness()
    _ = try other.load(Self.counter("A"), chunkName: "a.lua")
    _ = try other.load(Self.counter("A", storage: "file"), chunkName: "a.lua")
  }

  @Test func malformedDeclarationsAreLoadErrors() throws {
    let harness = try FeatureHarness()
    let noDefault = #expect(throws: LuaFeatureError.self) {
      try harness.load(#"local lunar = require "lunar"; return lunar.feature { name = "X", initial = {}, shared = { s = lunar.shared("s", {}) }, reduce = function() end }"#)
    }
    #expect(noDefault?.message.contains(#"lunar.shared("s") needs a `default` value"#) == true)
    let badStorage = #expect(throws: LuaFeatureError.self) {
      try harness.load(#"local lunar = require "lunar"; return lunar.feature { name = "X", initial = {}, shared = { s = lunar.shared("s", { default = 1, storage = "disk" }) }, reduce = function() end }"#)
    }
    #expect(badStorage?.message.contains(#"storage must be "memory" or "file""#) == true)
    let twice = #expect(throws: LuaFeatureError.self) {
      try harness.load(#"local lunar = require "lunar"; return lunar.feature { name = "X", initial = { s = 1 }, shared = { s = lunar.shared("s", { default = 1 }) }, reduce = function() end }"#)
    }
    #expect(twice?.message.contains("is both in `initial` and in `shared`") == true)
  }

  @Test func aFailingReducerDoesNotPublish() throws {
    let harness = try FeatureHarness()
    let source = Self.counter("A").replacingOccurrences(
      of: #"if action.type == "touch""#, with: #"if action.type == "fail" then state.count = 99; error("boom") end; if action.type == "touch""#)
    let a = try harness.load(source)
    let store = makeStore(a.reducer(), state: a.initialState)
    send(store, "fail")
    #expect(harness.takeErrors().count == 1)
    #expect(store.state.count == 0)
    #expect(harness.host.shared.value(forKey: "count") == 0)
  }

  @Test func luaTestsAssertSharedChanges() async throws {
    let results = await LuaTestRunner().run(file: Self.folder.appendingPathComponent("shared_test.lua"))
    #expect(results.count == 4)
    for result in results {
      #expect(result.passed, "\(result.name): \(result.failures)")
    }
  }

  @Test func anUnassertedSharedChangeFailsALuaTest() async throws {
    let results = await LuaTestRunner().run(file: Self.folder.appendingPathComponent("unasserted_test.lua"))
    let result = try #require(results.first)
    #expect(!result.passed)
    #expect(result.failures.contains { $0.message.contains("settings") })
  }
}
