import LuaBridge
import LuaFeatures

/// Reads an action typed at the prompt or given on a line of input.
///
/// Three forms:
/// - a Lua table literal: `{ type = "add", title = "milk" }`;
/// - a bare type: `increment`;
/// - a type and fields: `add title=milk count=2 done=true note="two words"`.
///
/// Values in `key=value` are read as Lua would: integers, floats, `true`/`false`, quoted strings;
/// anything else is a string.
///
/// A table literal runs in a scratch environment of its own, made for the line and dropped after
/// it: globals it sets or library tables it changes outlive nothing, so a line cannot park memory
/// that the feature's ceiling would then lack. It runs under the VM's limits like any call.
@MainActor
struct ActionParser {
  let vm: LuaVM

  init(vm: LuaVM) {
    self.vm = vm
  }

  func parse(_ line: String) throws(ActionParseError) -> LuaValue {
    let text = line.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { throw ActionParseError("empty line") }
    if text.hasPrefix("{") { return try parseTable(text) }
    let words = try split(text)
    guard let type = words.first, Self.isName(type) else {
      throw ActionParseError("an action starts with its type (a name like increment), got '\(words.first ?? text)'")
    }
    var fields: [LuaString: LuaValue] = ["type": .text(type)]
    for word in words.dropFirst() {
      guard let equals = word.firstIndex(of: "="), Self.isName(String(word[..<equals])) else {
        throw ActionParseError("expected key=value after the type, got '\(word)'")
      }
      fields[LuaString(String(word[..<equals]))] = Self.value(String(word[word.index(after: equals)...]))
    }
    return .table(fields)
  }

  private func parseTable(_ text: String) throws(ActionParseError) -> LuaValue {
    let values: [LuaValue]
    do {
      // NB: a sandbox of its own per line, with no access to features (see above).
      let sandbox = try vm.makeSandbox()
      let chunk = try sandbox.load("return " + text, chunkName: "input")
      values = try vm.call(chunk)
    } catch {
      throw ActionParseError(error.message)
    }
    // NB: `{ type = "a" }, { type = "b" }` is valid Lua returning two values: taking the first
    //     would silently drop the rest.
    guard values.count == 1, let value = values.first else {
      throw ActionParseError("one action per line: this line holds \(values.count) values")
    }
    guard case let .table(fields) = value, fields[LuaString("type")]?.stringValue != nil else {
      throw ActionParseError("an action is a table with a string `type`, like { type = \"increment\" }")
    }
    return value
  }

  /// Splits on spaces, keeping double-quoted parts together.
  private func split(_ text: String) throws(ActionParseError) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var escaped = false
    for character in text {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" && quoted {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
        current.append(character)
      } else if character == " " && !quoted {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    guard !quoted else { throw ActionParseError("unterminated string") }
    if !current.isEmpty { words.append(current) }
    return words
  }

  static func isName(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  static func value(_ text: String) -> LuaValue {
    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { return .text(String(text.dropFirst().dropLast())) }
    switch text {
    case "true": return true
    case "false": return false
    case "nil": return .nil
    default: break
    }
    if let integer = Int64(text) { return .integer(integer) }
    if let number = Double(text), number.isFinite { return .number(number) }
    return .text(text)
  }
}

/// A line that is not an action.
struct ActionParseError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
