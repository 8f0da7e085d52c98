import LuaBridge
import LuaFeatures

/// A child's action written as a path from the root feature: `dogs.breedTapped`, `todos[1].toggle`
/// (the element of id 1), `path[2].detail.closeTapped`: how the prompt reads such an action and
/// how Lunar writes one, instead of the wrapping the Lua composition routes
/// (`{type = "todos", id = 1, action = {type = "toggle"}}`).
///
/// ```swift
/// let path = try ActionPath("todos[1].toggle")
/// path.wrapping(["type": "toggle"])   // {type = "todos", id = 1, action = {type = "toggle"}}
/// ActionPath.split(["type": "dogs", "action": ["type": "onAppear"]])?.path   // "dogs.onAppear"
/// ```
public struct ActionPath: Equatable, Sendable {
  /// A step to a child: the key of the body entry, and the id of the element (rows, stack).
  public struct Step: Equatable, Sendable {
    public var key: String
    public var id: LuaValue?

    public init(key: String, id: LuaValue? = nil) {
      self.key = key
      self.id = id
    }
  }

  /// The steps from the root feature to the child that takes the action.
  public var steps: [Step]
  /// The child's action type.
  public var type: String

  /// The path written `word`: names separated by `.`, each but the last with an optional `[id]`
  /// (an integer, or a quoted string).
  public init(_ word: String) throws(ActionParseError) {
    var steps: [Step] = []
    var rest = Substring(word)
    while true {
      let name = rest.prefix { $0 == "_" || $0.isLetter || $0.isNumber }
      guard !name.isEmpty, ActionParser.isName(String(name)) else {
        throw ActionParseError("expected a name in '\(word)' (dogs.breedTapped, todos[1].toggle), got '\(rest)'")
      }
      rest = rest.dropFirst(name.count)
      if rest.isEmpty {
        guard !steps.isEmpty else { throw ActionParseError("'\(word)' is not a path to a child's action") }
        self.steps = steps
        self.type = String(name)
        return
      }
      var step = Step(key: String(name))
      if rest.hasPrefix("[") {
        guard let close = rest.firstIndex(of: "]") else { throw ActionParseError("unclosed [ in '\(word)'") }
        let inside = String(rest[rest.index(after: rest.startIndex)..<close])
        guard let id = ActionParser.value(inside), id.isInteger || id.stringValue != nil
        else { throw ActionParseError("[\(inside)] in '\(word)' is not an id (an integer, or a quoted string)") }
        step.id = id
        rest = rest[rest.index(after: close)...]
      }
      guard rest.hasPrefix(".") else { throw ActionParseError("expected . after \(name) in '\(word)'") }
      rest = rest.dropFirst()
      steps.append(step)
    }
  }

  init(steps: [Step], type: String) {
    self.steps = steps
    self.type = type
  }

  /// The path as written: `todos[1].toggle`.
  public var text: String {
    steps.map { $0.key + ($0.id.map { "[\($0)]" } ?? "") + "." }.joined() + type
  }

  /// `action` (the child's, of type ``type``) wrapped for the root feature, as the Lua composition
  /// routes it: `{type = "todos", id = 1, action = …}`.
  public func wrapping(_ action: LuaValue) -> LuaValue {
    steps.reversed().reduce(action) { inner, step in
      var fields: [LuaString: LuaValue] = ["type": .text(step.key), "action": inner]
      if let id = step.id { fields["id"] = id }
      return .table(fields)
    }
  }

  /// The path of a wrapped `action` and the child's action inside it; `nil` when `action` is no
  /// wrapping (a table with `type`, `action` and at most an `id`, of an integer or a string).
  public static func split(_ action: LuaValue) -> (path: ActionPath, action: LuaValue)? {
    var steps: [Step] = []
    var current = action
    while case let .table(fields) = current, let key = fields["type"]?.stringValue, ActionParser.isName(key),
      case .table = current[LuaString("action")],
      fields.keys.allSatisfy({ $0 == "type" || $0 == "action" || $0 == "id" })
    {
      let id = fields["id"]
      if let id, !id.isInteger, id.stringValue == nil { break }
      steps.append(Step(key: key, id: id))
      current = current[LuaString("action")]
    }
    guard !steps.isEmpty, let type = current[LuaString("type")].stringValue, ActionParser.isName(type) else { return nil }
    return (ActionPath(steps: steps, type: type), current)
  }
}

extension LuaValue {
  fileprivate var isInteger: Bool {
    if case .integer = self { return true }
    return false
  }
}
