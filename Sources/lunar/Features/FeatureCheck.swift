import Composable
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// What `lunar check` finds in a feature without running it.
@MainActor
struct FeatureCheck {
  struct Problem: CustomStringConvertible {
    var message: String
    var file: String?
    var line: Int?

    init(message: String, file: String?, line: Int?) {
      self.file = file
      self.line = line
      // NB: Lua's messages start with `file:line: ` already; keep the location in its own fields
      //     so that it prints once.
      var message = message
      if let file {
        let prefix = line.map { "\(file):\($0): " } ?? "\(file): "
        while message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
      }
      self.message = message
    }

    var description: String {
      guard let file else { return message }
      return "\(line.map { "\(file):\($0)" } ?? file): \(message)"
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
    /// The plugin's manifest, when the feature's folder has a `plugin.lua` that reads.
    var manifest: PluginManifest?
  }

  static func check(_ location: FeatureLocation) -> Report {
    var report = Report()
    guard checkManifest(location, into: &report) else { return report }
    let dependencies = HostDependencies.dependencies(mode: .offline, root: location.root)
    do {
      let host = try LuaFeatureHost(dependencies: dependencies)
      // NB: checking a script reads no saved data and takes no claim on the data folder: a host
      //     running the same feature must not make `check` fail.
      host.shared.reset(fileStorage: .inMemory())
      report.host = host
      let feature = try host.load(location)
      report.feature = feature
      report.name = feature.name
    } catch {
      let error = error.pointingAtScript(location)
      report.problems.append(Problem(message: error.message, file: error.file, line: error.line))
    }
    let files = report.feature?.loadedFiles ?? [location.script]
    // NB: A feature that does not load has no known Lua clients: its uses of `deps` cannot be
    //     judged, and would all look missing.
    let known = report.feature.map { dependencies.names + $0.clientNames }
    // NB: read from `lunar.fx` itself, so a new effect is known to `check` the day it exists.
    let effects = Set((try? report.host?.effectNames) ?? [])
    for file in files {
      guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
      scan(source, file: file.lastPathComponent, known: known, effects: effects, into: &report)
    }
    if let feature = report.feature { checkActionTypes(of: feature, root: location.root, into: &report) }
    return report
  }

  /// Globals a feature's sandbox leaves out, and what `check` says about them.
  static let unavailable: [(prefix: String, message: String)] = [
    ("os.", "`os` is not available to features"),
    ("io.", "`io` is not available to features"),
    ("debug.", "`debug` is not available to features"),
    ("package.", "`package` is not available to features"),
    ("dofile", "`dofile` is not available to features"),
    ("loadfile", "`loadfile` is not available to features"),
  ]
  static let sandboxNote = "(features have string, table, math, utf8 and safe base functions)"
  /// What the sandbox offers of `os`, `io` and `package` (the library shims, docs/lua-differences.md).
  static let offered: Set<String> = ["os.time", "os.clock", "os.getenv", "io.write", "package.config", "package.path", "package.cpath"]

  /// Looks for `fx.name` calls and `deps.a.b` uses neither the host nor the feature's Lua clients
  /// can satisfy (`known`, nil when the feature did not load), and for what the
  /// sandbox leaves out, line by line.
  private static func scan(
    _ source: String, file: String, known names: [String]?, effects: Set<String>, into report: inout Report
  ) {
    let known = Set(names ?? [])
    let prefixes = Set(known.flatMap { name in
      name.split(separator: ".").indices.map { name.split(separator: ".")[...$0].joined(separator: ".") }
    })
    let lines = codeLines(source)
    let aliases = typeAliases(in: lines)
    for (index, withStrings) in lines.enumerated() {
      // NB: Text inside string literals ("see os.time") is not code.
      let line = withoutStrings(withStrings)
      for (prefix, message) in unavailable {
        for name in identifiers(after: prefix, in: line) where !offered.contains("\(prefix)\(name)") {
          let use = prefix.hasSuffix(".") ? "\(prefix)\(name)" : prefix
          report.problems.append(Problem(message: "\(use): \(message) \(sandboxNote)", file: file, line: index + 1))
        }
      }
      if !identifiers(after: "string.dump", in: line).isEmpty {
        report.problems.append(Problem(
          message: "string.dump: binary chunks cannot be loaded (load accepts Lua source text only)", file: file, line: index + 1
        ))
      }
      for name in matches(of: "fx.", in: line) where !effects.isEmpty && !effects.contains(name.split(separator: ".").first.map(String.init) ?? name) {
        report.problems.append(Problem(message: "unknown effect fx.\(name) (effects: \(effects.sorted().joined(separator: ", ")))", file: file, line: index + 1))
      }
      for name in matches(of: "deps.", in: line) {
        if !report.dependencies.contains(name) { report.dependencies.append(name) }
        if names != nil && !known.contains(name) && !prefixes.contains(name) {
          report.problems.append(Problem(message: "deps.\(name) is not provided by this host (it has: \(known.sorted().joined(separator: ", ")))", file: file, line: index + 1))
        }
      }
      for type in actionTypes(in: withStrings, aliases: aliases) where !report.actions.contains(type) {
        report.actions.append(type)
      }
    }
  }

  /// The action types the scripts in `files` compare against (`action.type == "x"`): what
  /// `lunar list` shows.
  static func comparedActionTypes(in files: [URL]) -> [String] {
    var types: [String] = []
    for file in files {
      guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
      let lines = codeLines(source)
      let aliases = typeAliases(in: lines)
      for line in lines {
        for type in actionTypes(in: line, aliases: aliases) where !types.contains(type) { types.append(type) }
      }
    }
    return types
  }

  /// The lines of `source` without their comments.
  static func codeLines(_ source: String) -> [String] {
    source.split(separator: "\n", omittingEmptySubsequences: false).map { rawLine in
      String(rawLine.split(separator: "--", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
  }

  /// Names bound to an action's type, as in `local t = action.type`.
  private static func typeAliases(in lines: [String]) -> Set<String> {
    var aliases: Set<String> = []
    let pattern = /local\s+([A-Za-z_][A-Za-z0-9_]*)\s*=\s*[A-Za-z_][A-Za-z0-9_]*\.type\b/
    for line in lines {
      for match in line.matches(of: pattern) { aliases.insert(String(match.output.1)) }
    }
    return aliases
  }

  static func typeAliasNames(in lines: [String]) -> Set<String> { typeAliases(in: lines) }
  static func comparedTypes(in line: String, aliases: Set<String>) -> [String] { actionTypes(in: line, aliases: aliases) }

  /// Action types compared against: `action.type == "x"`, `"x" == action.type`, or `t == "x"`
  /// where `t` holds the type.
  private static func actionTypes(in line: String, aliases: Set<String>) -> [String] {
    var found: [String] = []
    let left = /([A-Za-z_][A-Za-z0-9_.]*)\s*[=~]=\s*["']([^"']*)["']/
    for match in line.matches(of: left) where isTypeExpression(String(match.output.1), aliases: aliases) {
      found.append(String(match.output.2))
    }
    let right = /["']([^"']*)["']\s*[=~]=\s*([A-Za-z_][A-Za-z0-9_.]*)/
    for match in line.matches(of: right) where isTypeExpression(String(match.output.2), aliases: aliases) {
      found.append(String(match.output.1))
    }
    return found
  }

  private static func isTypeExpression(_ expression: String, aliases: Set<String>) -> Bool {
    expression.hasSuffix(".type") || aliases.contains(expression)
  }

  /// `line` with the contents of its one-line string literals blanked out.
  private static func withoutStrings(_ line: String) -> String {
    var result = ""
    var quote: Character?
    var escaped = false
    for character in line {
      if let open = quote {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == open {
          quote = nil
          result.append(character)
        }
        continue
      }
      if character == "\"" || character == "'" { quote = character }
      result.append(character)
    }
    return result
  }

  /// Uses of the global `prefix` (`os.` → `execute`; `dofile` → `""`), not fields of other tables
  /// (`t.os.x`) nor longer names (`photos.x`).
  private static func identifiers(after prefix: String, in line: String) -> [String] {
    var names: [String] = []
    var rest = line[...]
    while let range = rest.range(of: prefix) {
      let before = rest[..<range.lowerBound].last
      rest = rest[range.upperBound...]
      guard before.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == ":") }) ?? true else { continue }
      let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      if !prefix.hasSuffix("."), !name.isEmpty { continue }
      names.append(String(name))
    }
    return names
  }

  /// Dotted names following `prefix` (`fx.` → `run`, `deps.` → `factClient.fetch`).
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
}

extension Error {
  /// The message of a feature error, or the description of any other.
  var message: String { (self as? LuaFeatureError)?.message ?? "\(self)" }
  var file: String? { (self as? LuaFeatureError)?.file }
  var line: Int? { (self as? LuaFeatureError)?.line }
}
