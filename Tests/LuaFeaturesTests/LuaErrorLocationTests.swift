import ComposableTesting
import LuaFeatures
import Testing

/// A Lua feature's mistakes fail a Swift test at the test's own line: a reducer's error at the
/// `send` that ran it, an effect still running at the end at the test store's creation, once.
@MainActor
struct LuaErrorLocationTests {
  struct Located: Sendable {
    let line: Int
    let message: String
  }

  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx
    return lunar.feature {
      name = "Faulty",
      initial = { count = 0 },
      reduce = function(state, action)
        if action.type == "explode" then error("boom") end
        if action.type == "typed" then return fx.debounce("typing", 0.5, { type = "settled" }) end
        if action.type == "settled" then state.count = state.count + 1 end
      end,
    }
    """

  @Test func aLuaReducerErrorFailsTheTestAtItsSendLine() async throws {
    let feature = try LuaFeatureHost().load(source: Self.source, chunkName: "faulty.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    let issues = LockIsolated<[Located]>([])
    let sendLine = #line + 2
    await withKnownIssue {
      await store.send(["type": "explode"])
    } matching: { issue in
      issues.withValue { $0.append(Located(line: issue.sourceLocation?.line ?? 0, message: issue.comments.map(\.rawValue).joined())) }
      return true
    }
    #expect(issues.value.map(\.line) == [sendLine])
    #expect(issues.value.first?.message.contains("faulty.lua:7: boom") == true, "\(issues.value)")
  }

  @Test func aPendingLuaDebounceIsReportedOnceAtTheTestStoresLine() async throws {
    let feature = try LuaFeatureHost().load(source: Self.source, chunkName: "faulty.lua")
    let issues = LockIsolated<[Located]>([])
    let storeLine = #line + 2
    await withKnownIssue {
      let store = TestStore(initialState: feature.initialState) { feature.reducer() } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(["type": "typed"])
    } matching: { issue in
      issues.withValue { $0.append(Located(line: issue.sourceLocation?.line ?? 0, message: issue.comments.map(\.rawValue).joined())) }
      return true
    }
    #expect(issues.value.map(\.line) == [storeLine], "\(issues.value)")
    let message = issues.value.first?.message ?? ""
    #expect(message.components(separatedBy: "an effect created at").count == 2, "\(message)")
    #expect(message.contains("an effect created at faulty.lua:8"), "\(message)")
  }
}
