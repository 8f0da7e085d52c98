import ArgumentParser
import Foundation
import LuaFeatures
import LunarHostSupport

/// `lunar list`: the features found and what they use.
struct List: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List features, the action types they handle and the dependencies they use.",
    discussion: """
      Action types are read from comparisons like action.type == "increment" (or t == "increment" \
      after local t = action.type) in the scripts; dependencies from uses like \
      deps.factClient.fetch(n). Exits 1 when a feature does not load or uses what the host lacks \
      (lunar check says more).
      """
  )

  @Argument(help: "Feature scripts or folders (default: the feature folders under examples/).")
  var paths: [String] = []

  @OptionGroup var format: JSONOption

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  @MainActor
  func run() async throws {
    let terminal = Terminal.standardOutput
    var problems = 0
    for location in try FeatureFiles.find(paths) {
      let report = FeatureCheck.check(location)
      problems += report.problems.count
      let path = FeatureFiles.display(location.script)
      if format.json {
        print(HostEvent.feature(
          name: report.name, path: path, actions: report.actions, dependencies: report.dependencies,
          ok: report.problems.isEmpty
        ).encoded().line)
        continue
      }
      print("\(terminal.bold(report.name ?? "(does not load)"))  \(terminal.dim(path))")
      print("  actions: \(report.actions.isEmpty ? "—" : report.actions.joined(separator: ", "))")
      print("  deps:    \(report.dependencies.isEmpty ? "—" : report.dependencies.map { "deps.\($0)" }.joined(separator: ", "))")
      for problem in report.problems { print("  " + terminal.red(problem.description)) }
    }
    if problems > 0 { throw ExitCode(1) }
  }
}
