import LuaBridge

/// Lua source text for paths and strings in an exported test; values are ``LuaNotation/block``.
///
/// ```swift
/// LuaSource.path(["todos", 3, "title"], root: "state")      // state.todos[3].title
/// ```
enum LuaSource {
  /// The expression reaching `path` from `root`: `state.todos[3]["odd key"]`.
  static func path(_ path: [LuaValue], root: String) -> String {
    var text = root
    for key in path {
      switch key {
      case let .string(name):
        let field = LuaNotation.field(name)
        text += field.hasPrefix("[") ? field : "." + field
      default: text += "[" + key.description + "]"
      }
    }
    return text
  }

  /// A Lua string literal.
  static func string(_ text: String) -> String {
    LuaValue.text(text).description
  }
}
