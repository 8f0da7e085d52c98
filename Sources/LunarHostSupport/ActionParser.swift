import LuaBridge
import LuaFeatures

/// Reads an action typed at the prompt or given on a line of input.
///
/// Four forms, told apart by how the line starts:
/// - a JSON object, when the line starts with `{` and its first key is a quoted string followed
///   by `:` (which Lua never writes): `{"type": "add", "title": "milk"}`;
/// - a Lua table literal, any other line starting with `{`: `{ type = "add", title = "milk" }`;
/// - a bare type: `increment`;
/// - a type and fields: `add title=milk count=2 done=true note="two words" tags={ "a", "b" }`;
///   the type may be a path to a child's action (`dogs.breedTapped breed=hound`, `todos[1].toggle`,
///   see ``ActionPath``).
///
/// Values in `key=value` are read as Lua reads a literal: integers (`2`, `0x10`), floats (`2.5`),
/// `true`/`false`/`nil`, strings in `"…"` or `'…'` with Lua's escapes, and tables `{ … }`;
/// anything else is a string (`title=milk`).
///
/// Lua text (a table literal, a table value, a string with escapes) runs in a scratch environment
/// of its own, made for the line and dropped after it: globals it sets or library tables it
/// changes outlive nothing, so a line cannot park memory that the feature's ceiling would then
/// lack. It runs under the VM's limits like any call. JSON is read by the same decoder as JSON
/// everywhere else in Lunar, with the VM's nesting limit.
///
/// ```swift
/// let parser = ActionParser(vm: host.vm)
/// let action = try parser.parse("add title=milk")   // ["type": "add", "title": "milk"]
/// ```
@MainActor
public struct ActionParser {
  /// The VM Lua text is evaluated in (in a sandbox of its own per line).
  public let vm: LuaVM

  /// A parser evaluating Lua text in `vm`.
  public init(vm: LuaVM) {
    self.vm = vm
  }

  /// The action `line` holds. This is the one place where a line of input becomes an action.
  public func parse(_ line: String) throws(ActionParseError) -> LuaValue {
    let text = line.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { throw ActionParseError("empty line") }
    if Self.isJSONObject(text) { return try parseJSON(text) }
    if text.hasPrefix("{") { return try parseTable(text) }
    return try parseFields(text)
  }

  /// Whether `text` is written as a JSON object: `{`, then a quoted key followed by `:`.
  static func isJSONObject(_ text: String) -> Bool {
    var bytes = text.utf8.makeIterator()
    guard bytes.next() == UInt8(ascii: "{") else { return false }
    var byte = bytes.next()
    while let current = byte, isJSONSpace(current) { byte = bytes.next() }
    guard byte == UInt8(ascii: "\"") else { return false }
    while let current = bytes.next() {
      if current == UInt8(ascii: "\\") {
        _ = bytes.next()
      } else if current == UInt8(ascii: "\"") {
        byte = bytes.next()
        while let current = byte, isJSONSpace(current) { byte = bytes.next() }
        return byte == UInt8(ascii: ":")
      }
    }
    return false
  }

  private static func isJSONSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
  }

  private func parseJSON(_ text: String) throws(ActionParseError) -> LuaValue {
    let value: LuaValue
    do {
      value = try LuaJSONDecoder(depthLimit: vm.limits.dataDepth).decode(text)
    } catch {
      throw ActionParseError("not a JSON object: \(error)")
    }
    return try Self.checked(value, example: #"{"type": "increment"}"#)
  }

  private func parseTable(_ text: String) throws(ActionParseError) -> LuaValue {
    let sandbox = try scratchSandbox()
    let value = try evaluate(text, in: sandbox) { count in
      // NB: `{ type = "a" }, { type = "b" }` is valid Lua returning two values: taking the first
      //     would silently drop the rest.
      "one action per line: this line holds \(count) values"
    }
    return try Self.checked(value, example: #"{ type = "increment" }"#)
  }

  private func parseFields(_ text: String) throws(ActionParseError) -> LuaValue {
    let words = try ActionWords.split(text)
    // NB: `todos[1].toggle` is the child's action `toggle`, wrapped as the composition routes it.
    var path: ActionPath?
    if let first = words.first, first.contains(where: { $0 == "." || $0 == "[" }) {
      path = try ActionPath(first)
    }
    guard let type = path?.type ?? words.first, Self.isName(type) else {
      throw ActionParseError("an action starts with its type (a name like increment), got '\(words.first ?? text)'")
    }
    var fields: [LuaString: LuaValue] = ["type": .text(type)]
    // NB: made on the first value that needs Lua, and shared by the line's values.
    var sandbox: LuaSandbox?
    for word in words.dropFirst() {
      guard let equals = word.firstIndex(of: "="), Self.isName(String(word[..<equals])) else {
        throw ActionParseError("expected key=value after the type, got '\(word)'")
      }
      let key = String(word[..<equals])
      let text = String(word[word.index(after: equals)...])
      if let value = Self.value(text) {
        fields[LuaString(key)] = value
        continue
      }
      let scratch: LuaSandbox
      if let sandbox {
        scratch = sandbox
      } else {
        scratch = try scratchSandbox()
        sandbox = scratch
      }
      let value = try evaluate(text, in: scratch) { count in "\(key)=… holds \(count) values; give it one" }
      if text.hasPrefix("{") {
        switch value {
        case .table, .array: break
        // NB: `{…}` followed by an operator (`{} == x`) is another expression than a table.
        default: throw ActionParseError("\(key)=\(text) is not a table")
        }
      }
      fields[LuaString(key)] = value
    }
    return path?.wrapping(.table(fields)) ?? .table(fields)
  }

  /// A sandbox of its own for one line, with no access to features (see above).
  private func scratchSandbox() throws(ActionParseError) -> LuaSandbox {
    do {
      return try vm.makeSandbox()
    } catch {
      throw ActionParseError(error.message)
    }
  }

  /// The one value the Lua expression `text` gives.
  private func evaluate(
    _ text: String, in sandbox: LuaSandbox, count: (Int) -> String
  ) throws(ActionParseError) -> LuaValue {
    let values: [LuaValue]
    do {
      let chunk = try sandbox.load("return " + text, chunkName: "input")
      values = try vm.call(chunk)
    } catch {
      throw ActionParseError(error.message)
    }
    guard values.count == 1, let value = values.first else { throw ActionParseError(count(values.count)) }
    return value
  }

  private static func checked(_ value: LuaValue, example: String) throws(ActionParseError) -> LuaValue {
    guard case let .table(fields) = value, fields[LuaString("type")]?.stringValue != nil else {
      throw ActionParseError("an action is a table with a string `type`, like \(example)")
    }
    return value
  }

  nonisolated static func isName(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  /// The value of `text` when Swift reads it as Lua would, or `nil` when it needs Lua (a table, a
  /// string with escapes).
  nonisolated static func value(_ text: String) -> LuaValue? {
    if let quote = text.first, quote == "\"" || quote == "'" {
      let body = text.dropFirst().dropLast()
      guard text.count >= 2, text.last == quote, !body.contains("\\"), !body.contains(quote) else { return nil }
      return .text(String(body))
    }
    if text.hasPrefix("{") { return nil }
    switch text {
    case "true": return true
    case "false": return false
    case "nil": return .nil
    default: break
    }
    if let integer = Int64(text) { return .integer(integer) }
    if let integer = hexadecimalInteger(text) { return .integer(integer) }
    if let number = Double(text), number.isFinite { return .number(number) }
    return .text(text)
  }

  /// `0x10` or `-0xff`, wrapping around as Lua's hexadecimal integers do.
  nonisolated private static func hexadecimalInteger(_ text: String) -> Int64? {
    let negative = text.hasPrefix("-")
    let digits = text.dropFirst(negative ? 1 : 0)
    guard digits.hasPrefix("0x") || digits.hasPrefix("0X") else { return nil }
    let hex = digits.dropFirst(2)
    guard !hex.isEmpty else { return nil }
    var value: UInt64 = 0
    for character in hex {
      guard let digit = character.hexDigitValue else { return nil }
      value = value &* 16 &+ UInt64(digit)
    }
    let integer = Int64(bitPattern: value)
    return negative ? 0 &- integer : integer
  }
}

/// A line that is not an action.
public struct ActionParseError: Error, CustomStringConvertible {
  /// What is wrong, and what would be right.
  public let description: String
  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
