import LuaBridge
import LunarHostSupport

extension FuzzTarget {
  /// A line typed at the prompt or piped in: `key=value` fields, a Lua table literal, a JSON object.
  static let actionLine = FuzzTarget(name: "action-line", summary: "an action line (key=value, Lua table, JSON)") { input in
    // NB: The VM outlives inputs, as it does in a session: a line must not leave anything behind.
    _ = try? ActionLineTarget.parser.parse(String(decoding: input, as: UTF8.self))
  }
}

@MainActor
private enum ActionLineTarget {
  static let parser: ActionParser = {
    guard let vm = try? LuaVM(limits: FuzzScratch.limits) else { fatalError("cannot make a Lua VM") }
    return ActionParser(vm: vm)
  }()
}
