import Foundation
import LuaBridge
import LuaFeatures

/// What `lunar check` finds in a feature without running it.
@MainActor
struct FeatureCheck {
  struct Problem: CustomStringConvertible {
    var message: String
    var file: String?
    var line: Int?
    var description: String {
      guard let file else { return message }
      return "\(file):\(line.map(String.init) ?? "?"): \(message)"
    }
  }

  struct Report {
    var name: String?
    var feature: LuaFeature?
    var host: LuaFeatureHost?
    var problems: [Problem] = []
    /// `deps.x.y` names the script mentions.
    var dependencies: [String] = []
    /// Action types the script compares against (`action.type == "x"`).
    var actions: [String] = []
  }

  static let effects: Set<String> = ["none", "send", "run", "merge", "concat", "cancel", "debounce", "throttle"]

  static func check(_ location: FeatureLocation) -> Report {
    var report = Report()
    let dependencies = ExampleClients.dependencies(mode: .offline, root: location.root)
    do {
      let host = try LuaFeatureHost(dependencies: dependencies)
      report.host = host
      let feature = try host.load(location)
      report.feature = feature
      report.name = feature.name
    } catch {
      report.problems.append(Problem(message: error.message, file: error.file, line: error.line))
    }
    let files = report.feature?.loadedFiles ?? [location.script]
    for file in files {
      guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
      scan(source, file: file.lastPathComponent, dependencies: dependencies, into: &report)
    }
    return report
  }

  /// Looks for `fx.name` calls and `deps.a.b` uses the host cannot satisfy, line by line.
  private static func scan(_ source: String, file: String, dependencies: LuaDependencies, into report: inout Report) {
    let known = Set(dependencies.names)
    let prefixes = Set(known.flatMap { name in
      name.split(separator: ".").indices.map { name.split(separator: ".")[...$0].joined(separator: ".") }
    })
    for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(rawLine.split(separator: "--", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
      for name in matches(of: "fx.", in: line) where !effects.contains(name.split(separator: ".").first.map(String.init) ?? name) {
        report.problems.append(Problem(message: "unknown effect fx.\(name) (effects: \(effects.sorted().joined(separator: ", ")))", file: file, line: index + 1))
      }
      for name in matches(of: "deps.", in: line) {
        if !report.dependencies.contains(name) { report.dependencies.append(name) }
        if !known.contains(name) && !prefixes.contains(name) {
          report.problems.append(Problem(message: "deps.\(name) is not provided by this host (it has: \(known.sorted().joined(separator: ", ")))", file: file, line: index + 1))
        }
      }
      for type in quoted(after: "type ==", in: line) where !report.actions.contains(type) {
        report.actions.append(type)
      }
    }
  }

  /// Dotted names following `prefix` (`fx.` → `run`, `deps.` → `numberFact.fetch`).
  private static func matches(of prefix: String, in line: String) -> [String] {
    var names: [String] = []
    var rest = line[...]
    while let range = rest.range(of: prefix) {
      let before = rest[..<range.lowerBound].last
      rest = rest[range.upperBound...]
      guard before.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true else { continue }
      let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
      let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : String(name)
      if !trimmed.isEmpty { names.append(trimmed) }
    }
    return names
  }

  private static func quoted(after marker: String, in line: String) -> [String] {
    var found: [String] = []
    var rest = line[...]
    while let range = rest.range(of: marker) {
      rest = rest[range.upperBound...].drop { $0 == " " }
      guard let quote = rest.first, quote == "\"" || quote == "'" else { continue }
      let body = rest.dropFirst().prefix { $0 != quote }
      found.append(String(body))
    }
    return found
  }
}

extension Error {
  /// The message of a feature error, or the description of any other.
  var message: String { (self as? LuaFeatureError)?.message ?? "\(self)" }
  var file: String? { (self as? LuaFeatureError)?.file }
  var line: Int? { (self as? LuaFeatureError)?.line }
}
