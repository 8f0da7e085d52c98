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
    let ownFiles = Set(files.map(\.standardizedFileURL.path))
    files += tests.filter { $0.lastPathComponent.hasSuffix("_test.lua") }.sorted { $0.path < $1.path }
      .filter { testsOnly(ownFiles, test: $0, root: root) }
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

  /// Whether the test file `test` tests this feature or features of its tree only: every feature
  /// module of the folder it requires is one of `ownFiles`. A test of a sibling feature (a parent,
  /// say) sends actions this feature does not declare, and is judged when that feature is checked.
  static func testsOnly(_ ownFiles: Set<String>, test: URL, root: URL) -> Bool {
    guard let source = try? String(contentsOf: test, encoding: .utf8) else { return true }
    for line in codeLines(source) {
      for match in line.matches(of: /require\s*\(?\s*["']([\w.\/]+)["']/) {
        let name = String(match.output.1)
        if name == "lunar" || name.hasPrefix("lunar.") { continue }
        let file = root.appendingPathComponent(name.replacingOccurrences(of: ".", with: "/") + ".lua").standardizedFileURL
        guard !ownFiles.contains(file.path), let module = try? String(contentsOf: file, encoding: .utf8) else { continue }
        if module.contains("lunar.feature") { return false }
      }
    }
    return true
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
