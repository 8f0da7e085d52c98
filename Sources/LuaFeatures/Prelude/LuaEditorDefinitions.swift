/// Definitions of the Lua API for editors: lua-language-server (LuaLS) files that describe
/// `lunar`, `lunar.fx`, effects, `lunar.test` and the built-in `deps`, so an editor completes,
/// documents and checks a feature script.
///
/// They are `Sources/LuaFeatures/Lua/types/*.d.lua`, embedded in the binary at build time, so an
/// installed `lunar` can hand them out: `lunar new` writes them into the new feature's
/// ``folder`` and points a `.luarc.json` (``luarc``) at them.
///
/// ```swift
/// for file in LuaEditorDefinitions.files {
///   try file.text.write(to: types.appending(path: file.name), atomically: true, encoding: .utf8)
/// }
/// ```
public enum LuaEditorDefinitions {
  /// One definition file.
  public struct File: Sendable, Equatable {
    /// Its file name, such as `lunar.d.lua`.
    public let name: String
    /// Its text.
    public let text: String
  }

  /// Every definition file, sorted by name.
  public static let files: [File] = EmbeddedLua.all.compactMap { file in
    guard file.name.hasPrefix(prefix) else { return nil }
    return File(name: String(file.name.dropFirst(prefix.count)), text: file.source)
  }

  /// Where `lunar new` puts the files, relative to the feature's folder.
  public static let folder = ".lunar/types"

  /// A `.luarc.json` for a feature's folder: Lua 5.4, the definitions in ``folder``, and the
  /// standard libraries the sandbox leaves out turned off.
  public static let luarc = """
    {
      "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
      "runtime.version": "Lua 5.4",
      "runtime.builtin": {
        "io": "disable",
        "os": "disable",
        "debug": "disable",
        "package": "disable",
        "coroutine": "disable"
      },
      "workspace.library": ["\(folder)"]
    }

    """

  private static let prefix = "types/"
}
