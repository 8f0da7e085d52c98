import Clocks
import Composable
import ComposableTesting
import CustomDump
import Foundation
import IssueReporting
import LuaBridge
import LuaFeatures
import Testing

/// TCA's composition rules, stated once (`Fixtures/CompositionSpec/scenarios.json`) and run against
/// both executions: `Composable`'s operators (`SpecParent`) and the Lua composition (`parent.lua`).
/// A test per rule and execution; a rule broken by one execution fails that one, with the step and
/// a diff of what the table states and what the execution did.
@MainActor
struct CompositionSpecTests {
  @Test func theTableReadsAndNamesEachRuleOnce() throws {
    let rules = try CompositionScenario.table().scenarios.map(\.rule)
    #expect(rules.count >= 20)
    #expect(Set(rules).count == rules.count, "two scenarios state the same rule")
    #expect(CompositionScenario.all.map(\.rule) == rules)
  }

  @Test(arguments: CompositionScenario.all)
  func swiftOperators(_ scenario: CompositionScenario) async throws {
    try await withTestStoreExecutor {
      let clock = TestClock()
      let log = ActionLog<SpecParent.Action>()
      let store = Store(initialState: SpecParent.State()) {
        Logging(base: SpecParent(), log: log)
      } withDependencies: {
        $0.continuousClock = clock
        $0.stackElementID = .incrementing
      }
      let execution = SpecExecution(
        store: store, log: log, clock: clock,
        action: SpecParent.Action.init(json:),
        actionJSON: \.json,
        stateJSON: { try SpecJSON(encoding: $0) },
        takeErrors: { [] }
      )
      try await check(scenario, in: "swift", execution)
    }
  }

  @Test(arguments: CompositionScenario.all)
  func luaComposition(_ scenario: CompositionScenario) async throws {
    let harness = try FeatureHarness()
    let parent = try harness.host.load(
      FeatureLocation(resolving: CompositionScenario.folder.appendingPathComponent("parent.lua").path))
    try await withTestStoreExecutor {
      let clock = TestClock()
      let log = ActionLog<LuaValue>()
      let store = Store(initialState: parent.initialState) {
        Logging(base: parent.reducer(), log: log)
      } withDependencies: {
        $0.continuousClock = clock
      }
      let execution = SpecExecution(
        store: store, log: log, clock: clock,
        action: \.luaValue,
        actionJSON: SpecJSON.init,
        stateJSON: { SpecJSON($0.value) },
        takeErrors: { harness.takeErrors().map(\.message) }
      )
      try await check(scenario, in: "lua", execution)
    }
  }

  /// Runs `scenario` on `execution`, and records where it breaks the rule (a known issue when the
  /// table says this execution is known to differ).
  private func check<State, Action>(
    _ scenario: CompositionScenario, in name: String, _ execution: SpecExecution<State, Action>
  ) async throws {
    let issues = IssueCollector()
    let failure = try await withIssueReporters([issues]) {
      try await execution.run(scenario, from: CompositionScenario.table().initial, issues: issues)
    }
    let known = scenario.known?[name]
    guard let failure else {
      if let known { Issue.record("\(name) now follows the rule; remove the known difference \"\(known)\"") }
      return
    }
    let message = Comment(
      rawValue: """
        "\(scenario.rule)" breaks at step \(failure.step) in the \(name) execution \
        (−: the table, +: the execution):
        \(diff(failure.expected, failure.actual) ?? "\(failure.actual)")
        """)
    if let known {
      withKnownIssue(Comment(rawValue: known)) { Issue.record(message) }
    } else {
      Issue.record(message)
    }
  }
}
