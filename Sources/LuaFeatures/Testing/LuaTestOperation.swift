import LuaBridge

/// One test store operation a Lua test asked for (`lunar.test` yields its name and arguments),
/// decoded once where it crosses from Lua.
enum LuaTestOperation {
  /// How `store:receive` recognizes the action it expects.
  enum Match {
    /// An action whose `type` is this.
    case type(String)
    /// An action equal to this one.
    case action(LuaValue)
    /// An action for which the test's function (behind this handle) returns true.
    case predicate(handle: Int64)
  }

  /// `test.store(feature, options)`: `feature` and `overrides` are handles, `expect` below too;
  /// `initial` is a state, or the handle of a `function(deps)` that builds it (`initialBuilder`).
  case store(
    feature: LuaValue, initial: LuaValue, initialBuilder: Int64?, overrides: LuaValue, exhaustive: Bool,
    realClients: [String], timeout: Double?
  )
  case send(store: Int64, action: LuaValue, expect: LuaValue)
  case receive(store: Int64, match: Match, expect: LuaValue)
  case advance(store: Int64, seconds: Double)
  case finish(store: Int64)
  /// `store:skipReceived { print = true }` prints what it skipped.
  case skipReceived(store: Int64, print: Bool)
  case skipInFlight(store: Int64)
  case state(store: Int64)
  /// `store:assert(function(state) … end)`.
  case assert(store: Int64, expect: LuaValue)
  case isDismissed(store: Int64)
  /// `store:withExhaustivity(…)` sets it, and puts the previous one back.
  case exhaustivity(store: Int64, on: Bool, showSkipped: Bool)
  /// `stream:yield(value)` or `stream:finish()` of `test.stream()`: wake what waits for it.
  case streamFed(stream: Int64)

  /// Decodes the operation `name` with the arguments `lunar.test` passed (its caller's
  /// `file:line` last, not read here).
  init(name: String, arguments: [LuaValue]) throws(LuaTestMisuse) {
    func argument(_ index: Int) -> LuaValue { index < arguments.count ? arguments[index] : .nil }
    func store() throws(LuaTestMisuse) -> Int64 {
      guard let id = argument(0).integerValue else { throw LuaTestMisuse(message: "not a test store of this test") }
      return id
    }
    switch name {
    case "store":
      self = .store(
        feature: argument(0), initial: argument(1), initialBuilder: argument(6).integerValue, overrides: argument(2),
        exhaustive: argument(3).boolValue ?? true,
        realClients: (argument(4).arrayValue ?? []).compactMap(\.stringValue), timeout: argument(5).numberValue
      )
    case "send":
      self = .send(store: try store(), action: argument(1), expect: argument(2))
    case "receive":
      let id = try store()
      let match: Match
      switch argument(1).stringValue {
      case "type":
        match = .type(argument(2).stringValue ?? "")
      case "action":
        match = .action(argument(2))
      default:
        guard let handle = argument(2).integerValue else { throw LuaTestMisuse(message: "bad predicate") }
        match = .predicate(handle: handle)
      }
      self = .receive(store: id, match: match, expect: argument(3))
    case "advance":
      self = .advance(store: try store(), seconds: argument(1).numberValue ?? 0)
    case "finish":
      self = .finish(store: try store())
    case "skipReceived":
      self = .skipReceived(store: try store(), print: argument(1).boolValue ?? false)
    case "skipInFlight":
      self = .skipInFlight(store: try store())
    case "state":
      self = .state(store: try store())
    case "assert":
      self = .assert(store: try store(), expect: argument(1))
    case "isDismissed":
      self = .isDismissed(store: try store())
    case "streamFed":
      guard let stream = argument(0).integerValue else { throw LuaTestMisuse(message: "not a stream of this test") }
      self = .streamFed(stream: stream)
    case "exhaustivity":
      self = .exhaustivity(store: try store(), on: argument(1).stringValue != "off", showSkipped: argument(2).boolValue ?? false)
    default:
      throw LuaTestMisuse(message: "unknown test store operation '\(name)'")
    }
  }
}
