// EmbedLua: embeds a target's `.lua` files into its binary at build time.
//
// A target that lists this plugin keeps its Lua in a `Lua/` folder, excluded from its sources
// (`exclude: ["Lua"]`, or SwiftPM warns about files it does not handle). For every build, the
// plugin hands each `.lua` file under that folder to the `embed-lua` tool, which compiles it with
// Lua (a syntax error fails the build at its file and line) and generates `EmbeddedLua.swift`:
// `EmbeddedLua.<name>` holds each file's text and its path inside `Lua/`, the chunk name it is
// loaded under, so that errors in it name the real file and line.
import Foundation
import PackagePlugin

@main
struct EmbedLua: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let root = target.directoryURL.appending(path: "Lua", directoryHint: .isDirectory)
    let files = luaFiles(under: root)
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedLua.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) Lua file(s) of \(target.name)",
        executable: try context.tool(named: "embed-lua").url,
        arguments: [output.path(percentEncoded: false), root.path(percentEncoded: false)]
          + files.map { $0.path(percentEncoded: false) },
        inputFiles: files,
        outputFiles: [output]
      )
    ]
  }

  /// The `.lua` files under `root`, at any depth, sorted by path.
  private func luaFiles(under root: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }
      .filter { $0.pathExtension == "lua" }
      .map(\.standardizedFileURL)
      .sorted { $0.path < $1.path }
  }
}
