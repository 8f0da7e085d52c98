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

    private enum CodingKeys: String, CodingKey, CaseIterable {
      case send, advance, state, received, effects, reported
    }

    init(from decoder: any Decoder) throws {
      try rejectUnknownKeys(CodingKeys.self, in: decoder)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      send = try container.decodeIfPresent(SpecJSON.self, forKey: .send)
      advance = try container.decodeIfPresent(Int.self, forKey: .advance)
      state = try container.decodeIfPresent(SpecJSON.self, forKey: .state)
      received = try container.decodeIfPresent([SpecJSON].self, forKey: .received)
      effects = try container.decodeIfPresent(Int.self, forKey: .effects)
      reported = try container.decodeIfPresent(Bool.self, forKey: .reported)
    }
  }

  private enum CodingKeys: String, CodingKey, CaseIterable {
    case rule, steps, known
  }

  init(from decoder: any Decoder) throws {
    try rejectUnknownKeys(CodingKeys.self, in: decoder)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    rule = try container.decode(String.self, forKey: .rule)
    steps = try container.decode([Step].self, forKey: .steps)
    known = try container.decodeIfPresent([String: String].self, forKey: .known)
    if let execution = known?.keys.first(where: { $0 != "swift" && $0 != "lua" }) {
      throw SpecError("\"\(rule)\": \"known\" names \"\(execution)\", which is not an execution (swift, lua)")
    }
  }

  var testDescription: String { rule }

  /// The spec: the state every scenario starts from, and the scenarios.
  struct Table: Decodable {
    let initial: SpecJSON
    let scenarios: [CompositionScenario]
  }

  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/CompositionSpec")

  /// The table as read from `scenarios.json`, or why it cannot be read.
  static let loaded: Result<Table, any Error> = Result {
    let url = folder.appendingPathComponent("scenarios.json")
    do {
      return try JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
    } catch {
      throw SpecError("\(url.path) cannot be read: \(error)")
    }
  }

  /// The table; throws when it cannot be read.
  static func table() throws -> Table { try loaded.get() }

  /// The scenarios, for the tests' arguments: none when the table cannot be read (which
  /// `CompositionSpecTests.theTableReadsAndNamesEachRuleOnce` reports).
  static var all: [CompositionScenario] { (try? loaded.get().scenarios) ?? [] }
}

/// Fails on a key `Keys` does not name: a misspelt expectation (`"recieved"`) would otherwise be
/// ignored, and the step would check less than it says.
private func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type, in decoder: any Decoder) throws {
  let known = Set(Keys.allCases.map(\.stringValue))
  let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
  if let unknown = keys.first(where: { !known.contains($0) }) {
    throw SpecError("\"\(unknown)\" is not a field here (fields: \(known.sorted().joined(separator: ", ")))")
  }
}

/// Any key of a JSON object.
private struct AnyKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
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
