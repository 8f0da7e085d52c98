import LuaBridge
import LuaFeatures

/// Values, actions and state changes written for a person, as Lua source, within limits: a table
/// deeper than ``depth`` shows as `{…}`, and text longer than ``length`` characters is cut with `…`.
///
/// ```swift
/// let text = ValueText(depth: 1, length: 40)
/// text.value(["type": "loaded", "breeds": [["name": "hound"]]])   // { type = "loaded", breeds = {…} }
/// text.action(["type": "dogs", "action": ["type": "breedTapped", "breed": "hound"]])
///                                                                  // dogs.breedTapped breed="hound"
/// text.change(LuaStateChange(path: ["laps", 3], value: 0.3))     // laps[3] = 0.3
/// ```
///
/// An action is written as it is typed at `lunar run`'s prompt: its type, then its fields as
/// `key=value`; an action for a child (`{ type = "todos", id = 1, action = {…} }`, as the Lua
/// composition wraps it) as a path to the child's action (`todos[1].toggle`).
public struct ValueText: Sendable {
  /// How deep tables are written; deeper ones show as `{…}`. `nil`: no limit.
  public var depth: Int?
  /// How many characters a text may take; longer ones are cut, ending with `…`. `nil`: no limit.
  public var length: Int?

  /// Writes values whole.
  public static let full = ValueText(depth: nil, length: nil)

  public init(depth: Int?, length: Int?) {
    self.depth = depth
    self.length = length
  }

  /// `value` as Lua source on one line (``LuaNotation``): `{ count = 3, items = { 1, "x" } }`.
  public func value(_ value: LuaValue) -> String {
    notation.text(value)
  }

  /// `action` as typed at the prompt: `increment`, `add title="milk"`, `todos[1].toggle`; one that
  /// has no type, or a field that is not a name, as a Lua table.
  public func action(_ action: LuaValue) -> String {
    guard let (path, leaf) = Self.path(of: action), case let .table(fields) = leaf else { return value(action) }
    var out = path
    for key in fields.keys.sorted() where key != "type" {
      guard let name = key.string, Self.isName(name) else { return value(action) }
      out += " \(name)="
      write(fields[key]!, level: 1, to: &out)
    }
    return cut(out)
  }

  /// What `change` did: `count = 1`, `laps[3] = 0.3`, `detail = nil` (removed).
  public func change(_ change: LuaStateChange) -> String {
    var out = Self.keys(change.path)
    out += " = "
    write(change.value, level: change.path.count, to: &out)
    return cut(out)
  }

  /// The path of `action` (`increment`, `dogs.breedTapped`, `todos[1].toggle`) and the innermost
  /// action; `nil` when it has no type.
  public static func path(of action: LuaValue) -> (String, LuaValue)? {
    if let (path, leaf) = ActionPath.split(action) { return (path.text, leaf) }
    guard let type = action[LuaString("type")].stringValue, isName(type) else { return nil }
    return (type, action)
  }

  /// `count`, `todos[2].title`, `["odd key"]`.
  public static func keys(_ path: [LuaValue]) -> String {
    var out = ""
    for key in path {
      if let name = key.stringValue, isName(name) {
        out += (out.isEmpty ? "" : ".") + name
      } else {
        out += "[\(key)]"
      }
    }
    return out.isEmpty ? "state" : out
  }

  /// Whether `text` is a Lua name (a bare field name).
  public static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
  }

  /// `text`, cut to ``length`` characters (the last one `…`).
  public func cut(_ text: String) -> String {
    notation.cut(text)
  }

  /// The notation within these limits, on one line.
  private var notation: LuaNotation { LuaNotation(depth: depth, width: nil, length: length) }

  /// Writes `value`, a table at nesting `level`, past the end of `out`.
  private func write(_ value: LuaValue, level: Int, to out: inout String) {
    var notation = notation
    notation.depth = depth.map { $0 - level }
    out += notation.text(value)
  }
}
