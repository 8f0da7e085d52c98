import Foundation
import LuaFeatures

extension FeatureCheck {
  /// When the feature and every feature of its body declare their actions: the literal action
  /// types its scripts and the tests beside them send, compare against and receive
  /// (`type = "x"`, `action.type == "x"`, `store:receive("x")`) that none of them declares.
  static func checkActionTypes(of feature: LuaFeature, root: URL, into report: inout Report) {
    guard let declared = feature.actionTypesOfTree else { return }
    let known = Set(declared)
    let owner = feature.childActionTypes.isEmpty ? "\(feature.name) declares" : "\(feature.name) and its children declare"
    var files = feature.loadedFiles
    let tests = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
    files += tests.filter { $0.lastPathComponent.hasSuffix("_test.lua") }.sorted { $0.path < $1.path }
    for file in files {
      guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
      let lines = codeLines(source)
      let aliases = typeAliasNames(in: lines)
      for (index, line) in lines.enumerated() {
        for type in literalActionTypes(in: line, aliases: aliases) where !known.contains(type) {
          let near = LuaFeature.nearest(to: type, in: declared).map { " (did you mean \"\($0)\"?)" } ?? ""
          report.problems.append(Problem(
            message: "unknown action \"\(type)\"\(near); \(owner) \(declared.joined(separator: ", "))",
            file: file.lastPathComponent, line: index + 1))
        }
      }
    }
  }

  /// The action types a line names literally: in a table (`type = "x"`), compared
  /// (`action.type == "x"`) or received (`store:receive("x")`).
  static func literalActionTypes(in line: String, aliases: Set<String>) -> [String] {
    var found = comparedTypes(in: line, aliases: aliases)
    for match in line.matches(of: /(?:^|[^.\w])type\s*=\s*["']([^"']+)["']/) { found.append(String(match.output.1)) }
    for match in line.matches(of: /:receive\(\s*["']([^"']+)["']/) { found.append(String(match.output.1)) }
    return found
  }
}
