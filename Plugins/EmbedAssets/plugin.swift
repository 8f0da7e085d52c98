// EmbedAssets: embeds the files of a target's `Page/` folder (HTML, CSS, JavaScript) into its binary
// at build time, so a command that serves a web page needs nothing beside its executable.
//
// A target that lists this plugin keeps the files in `Page/`, excluded from its sources
// (`exclude: ["Page"]`). For every build, the plugin hands each file to the `embed-assets` tool,
// which generates `EmbeddedPage.swift`: `EmbeddedPage.files` maps each file's path inside `Page/`
// to its text.
import Foundation
import PackagePlugin

@main
struct EmbedAssets: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let root = target.directoryURL.appending(path: "Page", directoryHint: .isDirectory)
    let files = pageFiles(under: root)
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPage.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) page file(s) of \(target.name)",
        executable: try context.tool(named: "embed-assets").url,
        arguments: [output.path(percentEncoded: false), root.path(percentEncoded: false)]
          + files.map { $0.path(percentEncoded: false) },
        inputFiles: files,
        outputFiles: [output]
      )
    ]
  }

  /// The files under `root`, at any depth, sorted by path (hidden files left out).
  private func pageFiles(under root: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { return [] }
    return walker.compactMap { $0 as? URL }
      .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
      .map(\.standardizedFileURL)
      .sorted { $0.path < $1.path }
  }
}
