/// What the definitions for editors (LuaLS `---@meta` files) declare, read from their annotations
/// the simple way lua-language-server would: `---@class NAME` before `local T = {}` names `T`;
/// `function T.f(` and `function T:f(` declare functions of that class; `---@field name type`
/// declares a field of the class above it.
struct Definitions {
  struct Class {
    var functions: Set<String> = []
    /// Field name → its type's first word (`lunar.Clock`).
    var fields: [String: String] = [:]
  }

  var classes: [String: Class] = [:]
  /// Functions of tables no `---@class` names (`file: function T.f`): none should exist.
  var strays: [String] = []

  init(files: [(name: String, text: String)]) {
    for file in files { read(file.name, file.text) }
  }

  private mutating func read(_ name: String, _ text: String) {
    var variables: [String: String] = [:]
    var current: String?
    var pending: String?
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if let rest = line.dropping("---@class ") {
        let className = String(rest.prefix { !$0.isWhitespace && $0 != ":" })
        current = className
        pending = className
        if classes[className] == nil { classes[className] = Class() }
      } else if let rest = line.dropping("---@field "), let current {
        let words = rest.split(separator: " ")
        guard words.count >= 2, !words[0].hasPrefix("[") else { continue }
        let field = String(words[0]).replacingOccurrences(of: "?", with: "")
        classes[current, default: Class()].fields[field] = String(words[1])
      } else if line.hasPrefix("--") || line.isEmpty {
        continue
      } else if let rest = line.dropping("local "), let className = pending, rest.hasSuffix("= {}") {
        variables[String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })] = className
        current = nil
        pending = nil
      } else if let rest = line.dropping("function ") {
        let table = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let function = String(rest.dropFirst(table.count + 1).prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        if let className = variables[table] {
          classes[className, default: Class()].functions.insert(function)
        } else {
          strays.append("\(name): function \(table).\(function)")
        }
        current = nil
        pending = nil
      } else {
        current = nil
        pending = nil
      }
    }
  }
}

extension String {
  /// The rest of the string after `prefix`, or nil when it does not start with it.
  fileprivate func dropping(_ prefix: String) -> Substring? {
    hasPrefix(prefix) ? dropFirst(prefix.count) : nil
  }
}
