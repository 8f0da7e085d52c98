import ComposableTesting
import Foundation
import LuaBridge

/// What `store:receive(…)` expects, and how its failures read in Lua terms: the expected type or
/// action, the actions that did arrive, and the difference from the closest of them.
struct LuaReceiveExpectation {
  /// What the test passed.
  enum Matcher {
    case type(String)
    case action(LuaValue)
    case predicate(at: String?, matches: (LuaValue) -> Bool)
  }

  let matcher: Matcher

  /// "an action of type \"done\"", `{type = "done"}`, or the predicate's place.
  var description: String {
    switch matcher {
    case let .type(type): "an action of type \(LuaValue.string(LuaString(type)))"
    case let .action(action): "\(action)"
    case let .predicate(at, _): "an action for which the function\(at.map { " at \($0)" } ?? "") returns true"
    }
  }

  func matches(_ action: LuaValue) -> Bool {
    switch matcher {
    case let .type(type): action[LuaString("type")] == .string(LuaString(type))
    case let .action(expected): action == expected
    case let .predicate(_, matches): matches(action)
    }
  }

  /// The actions that arrived, one per line, then the difference from the closest.
  func explain(_ arrived: [LuaValue]) -> String {
    var lines = ["  Arrived, not yet received:"] + arrived.map { "    \($0)" }
    if let closest = closest(in: arrived) {
      switch matcher {
      case let .type(type):
        lines += ["", "  Closest (Expected: −, Arrived: +):", "    − type = \(LuaValue.string(LuaString(type)))",
                  "    + type = \(closest[LuaString("type")])"]
      case let .action(expected):
        if let difference = LuaNotation.block.diff(expected, closest, markers: .proportional) {
          lines += ["", "  Closest (Expected: −, Arrived: +):", difference.indent(by: 4)]
        }
      case .predicate:
        break
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The arrived action most like the expected one: the nearest type by edit distance, then the
  /// most fields in common.
  func closest(in arrived: [LuaValue]) -> LuaValue? {
    func typeOf(_ action: LuaValue) -> String { action[LuaString("type")].stringValue ?? "" }
    switch matcher {
    case let .type(type):
      return arrived.min { editDistance(typeOf($0), type) < editDistance(typeOf($1), type) }
    case let .action(expected):
      let wanted = typeOf(expected)
      func score(_ action: LuaValue) -> (Int, Int) {
        let shared = (expected.tableValue ?? [:]).filter { action[$0.key] == $0.value }.count
        return (editDistance(typeOf(action), wanted), -shared)
      }
      return arrived.min { score($0) < score($1) }
    case .predicate:
      return nil
    }
  }

  static let advice =
    "Use a longer timeout (test.store(feature, { timeout = seconds })), or advance the clock the effect waits on (store:advance(seconds))."
}

extension String {
  func indent(by spaces: Int) -> String {
    let padding = String(repeating: " ", count: spaces)
    return split(separator: "\n", omittingEmptySubsequences: false).map { padding + $0 }.joined(separator: "\n")
  }
}
