import ArgumentParser
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// `lunar check`: loads features without running them, for editors and CI.
struct Check: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compile and load features without running them; report problems.",
    discussion: """
      For each feature (a .lua file, or a folder with feature.lua/main.lua, or a plugin's folder; \
      default: every feature folder under examples/), reports a plugin's plugin.lua that does not \
      load or has a wrong field (a name, a version, an api this host does not offer, a missing \
      entry feature, malformed capabilities) with file:line, syntax errors with file:line, a script that does not return \
      lunar.feature { … }, a missing name, initial state or reduce, and dependencies it mentions \
      that the host does not have. Exits 1 on any problem. Fast enough to run on every save.
      """
  )

  @Argument(help: "Feature scripts or folders.")
  var paths: [String] = []

  @OptionGroup var format: JSONOption

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  @MainActor
  func run() async throws {
    let locations = try FeatureFiles.find(paths)
    var problems = 0
    let terminal = Terminal.standardOutput
    for location in locations {
      let report = FeatureCheck.check(location)
      problems += report.problems.count
      if format.json {
        print(HostEvent.check(
          feature: report.name, path: FeatureFiles.display(location.script), plugin: report.manifest.map(Self.plugin),
          problems: report.problems.map { HostEvent.Problem(message: $0.message, file: $0.file, line: $0.line) }
        ).encoded().line)
      } else if report.problems.isEmpty {
        let plugin = report.manifest.map { "  plugin \($0.name) \($0.version), asks for \($0.capabilities)" } ?? ""
        print("\(terminal.green("✔")) \(FeatureFiles.display(location.script))  \(terminal.dim((report.name ?? "") + plugin))")
      } else {
        print("\(terminal.red("✘")) \(FeatureFiles.display(location.script))")
        for problem in report.problems {
          print("    " + terminal.red(problem.description))
        }
      }
    }
    if problems > 0 { throw ExitCode(1) }
  }

  /// A plugin's manifest in a `check` event.
  static func plugin(_ manifest: PluginManifest) -> LuaValue {
    [
      "name": .text(manifest.name), "version": .text(manifest.version), "api": .integer(Int64(manifest.api)),
      "capabilities": manifest.capabilities.luaValue,
    ]
  }
}
