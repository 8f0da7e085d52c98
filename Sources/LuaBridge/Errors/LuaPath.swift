/// Where a value sits inside a larger value, written the way Lua code would reach it:
/// `state.items[3].onTap`, `config["odd key"]`.
///
/// Indices are Lua's (the first element is `[1]`), also for Swift arrays met by ``LuaEncoder`` and
/// ``LuaDecoder``, so a path always matches what a Lua author sees.
public struct LuaPath: Sendable, Hashable, CustomStringConvertible {
  /// One step into a table.
  public enum Component: Sendable, Hashable {
    /// A string key.
    case key(String)
    /// An array index or integer key, as Lua counts (from 1).
    case index(Int)
  }

  /// What the path starts from (`state`, `argument #2`); may be empty.
  public var root: String
  /// The steps from the root.
  public var components: [Component]

  /// A path of `components` under `root`.
  public init(root: String, components: [Component] = []) {
    self.root = root
    self.components = components
  }

  /// This path extended by one step.
  public func appending(_ component: Component) -> LuaPath {
    LuaPath(root: root, components: components + [component])
  }

  public var description: String {
    var out = root
    for component in components {
      switch component {
      case .key(let key):
        if LuaLiteral.isIdentifier(LuaString(key)) {
          out += out.isEmpty ? key : "." + key
        } else {
          out += "[" + LuaLiteral.quote(LuaString(key)) + "]"
        }
      case .index(let index):
        out += "[\(index)]"
      }
    }
    return out.isEmpty ? "value" : out
  }
}
