import Clocks
import Composable
import Foundation
import IssueReporting

/// Every action a store's reducer ran, in order: the sent ones and those effects sent.
final class ActionLog<Action>: @unchecked Sendable {
  private let lock = NSLock()
  private var actions: [Action] = []

  func append(_ action: Action) { lock.withLock { actions.append(action) } }

  /// The actions logged since the last call.
  func take() -> [Action] {
    lock.withLock {
      defer { actions = [] }
      return actions
    }
  }
}

/// `base`, logging each action it runs.
struct Logging<Base: Reducer>: Reducer {
  let base: Base
  let log: ActionLog<Base.Action>

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    log.append(action)
    return base.reduce(into: &state, action: action)
  }
}

/// The issues reported (`reportIssue`) while it is the task's reporter.
final class IssueCollector: IssueReporter, @unchecked Sendable {
  private let lock = NSLock()
  private var messages: [String] = []

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = message() ?? "an issue"
    lock.withLock { messages.append(text) }
  }

  func reportIssue(
    _ error: any Error, _ message: @autoclosure () -> String?,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = "\(error) \(message() ?? "")"
    lock.withLock { messages.append(text) }
  }

  /// The messages reported since the last call.
  func take() -> [String] {
    lock.withLock {
      defer { messages = [] }
      return messages
    }
  }
}

/// One execution of the spec: a store of the feature, how the table's notation reaches it, and how
/// its state, received actions and errors read in that notation.
@MainActor
struct SpecExecution<State, Action: Sendable> {
  let store: Store<State, Action>
  let log: ActionLog<Action>
  let clock: TestClock<Duration>
  let action: (SpecJSON) throws -> Action
  let actionJSON: (Action) -> SpecJSON
  let stateJSON: (State) throws -> SpecJSON
  /// The errors this execution reported since the last call, beside `reportIssue`.
  let takeErrors: () -> [String]

  /// Runs `scenario` step by step from `initial`; returns, for the first step whose outcome
  /// differs from the table, the step's index and both outcomes. `nil` when every step holds.
  func run(
    _ scenario: CompositionScenario, from initial: SpecJSON, issues: IssueCollector
  ) async throws -> (step: Int, expected: StepOutcome, actual: StepOutcome)? {
    var tasks: [StoreTask] = []
    defer { for task in tasks { task.cancel() } }
    var expected = StepOutcome(state: initial, received: [], effects: 0, reported: false)
    let start = StepOutcome(state: try stateJSON(store.state), received: [], effects: store.effectsInFlight, reported: false)
    if start != expected { return (0, expected, start) }
    for (index, step) in scenario.steps.enumerated() {
      _ = log.take()
      if let send = step.send { tasks.append(store.send(try action(send))) }
      await clock.advance(by: .seconds(step.advance ?? 0))
      // NB: An effect that ends at once (a dismissal sends its action from an effect of its own)
      //     needs turns of the serial executor after the clock's last one; a few more cost nothing
      //     and keep the count of effects in flight from depending on how many the clock took.
      for _ in 0..<10 { await Task.yield() }
      var logged = log.take()
      if step.send != nil, !logged.isEmpty { logged.removeFirst() }
      let reported = issues.take() + takeErrors()
      let actual = StepOutcome(
        state: try stateJSON(store.state),
        received: logged.map(actionJSON),
        effects: store.effectsInFlight,
        reported: !reported.isEmpty
      )
      if let patch = step.state { expected.state = expected.state.merging(patch) }
      expected.received = step.received ?? []
      expected.effects = step.effects ?? 0
      expected.reported = step.reported ?? false
      if actual != expected { return (index + 1, expected, actual) }
    }
    return nil
  }
}
