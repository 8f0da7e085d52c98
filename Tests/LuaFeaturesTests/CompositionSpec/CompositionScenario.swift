import Foundation
import Testing

/// One rule of TCA's composition, stated once as data (`Fixtures/CompositionSpec/scenarios.json`):
/// steps of actions in the table's notation and what each step must lead to. Both executions, the
/// Swift operators and the Lua composition, are held to it (`CompositionSpecTests`).
struct CompositionScenario: Sendable, Decodable, CustomTestStringConvertible {
  /// The rule, as a sentence: the name of the scenario's tests.
  let rule: String
  let steps: [Step]
  /// A difference from the rule known in one execution ("swift" or "lua"), and what it is: that
  /// execution's test expects the failure (`withKnownIssue`) until it is fixed.
  let known: [String: String]?

  /// An action sent, time passed on the test clock, and what must be true after them.
  struct Step: Sendable, Decodable {
    /// The action the test sends, if any.
    let send: SpecJSON?
    /// Seconds the test clock advances after the send.
    let advance: Int?
    /// The state's change, as a JSON merge patch (RFC 7386) of the state after the previous step
    /// (`null` removes a field); none when the state must not change.
    let state: SpecJSON?
    /// The actions the feature received from effects during the step, in order.
    let received: [SpecJSON]?
    /// How many effects are still in flight after the step.
    let effects: Int?
    /// Whether the step reports an error (an action for a child that is not there).
    let reported: Bool?
  }

  var testDescription: String { rule }

  /// The spec: the state every scenario starts from, and the scenarios.
  struct Table: Decodable {
    let initial: SpecJSON
    let scenarios: [CompositionScenario]
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/CompositionSpec")

  static let table: Table = {
    let url = folder.appendingPathComponent("scenarios.json")
    do {
      return try JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
    } catch {
      fatalError("\(url.path) cannot be read: \(error)")
    }
  }()

  static var all: [CompositionScenario] { table.scenarios }
}

/// What a step leads to, as the table states it and as an execution shows it.
struct StepOutcome: Equatable, CustomStringConvertible {
  var state: SpecJSON
  var received: [SpecJSON]
  var effects: Int
  var reported: Bool

  var description: String {
    "state \(state)\nreceived \(received)\neffects in flight \(effects)\nreported \(reported)"
  }
}
