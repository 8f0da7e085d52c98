/// Writes a ``LuaValue`` as JSON text (UTF-8 bytes), exactly and deterministically.
///
/// ```swift
/// let encoder = LuaJSONEncoder()
/// let bytes = try encoder.encode(["count": 3, "ratio": 0.5, "tags": ["a"]])
/// String(decoding: bytes, as: UTF8.self)   // {"count":3,"ratio":0.5,"tags":["a"]}
/// ```
///
/// The rules, which ``LuaJSONDecoder`` reads back to the same value:
///
/// - **Keys are bytes.** A table's keys are sorted by their bytes (as `strcmp` would), never as Swift
///   strings: `"é"` (U+00E9) and `"e"` + U+0301 are two keys, both written. The same value always
///   gives the same text.
/// - **Integers stay integers, floats stay floats.** `.integer(3)` is `3`; `.number(3)` is `3.0`.
///   Floats are written in the shortest form that reads back as the same `Double` (`0.1`, `1e-05`).
/// - **`.nil` is `null`**, in arrays and as a table's value (`["a": nil]` is `{"a":null}`).
///   `.array([])` is `[]` and `.table([:])` is `{}`.
/// - **Refused** (a ``LuaJSONError`` naming the path, such as `state.todos[3].title`): a string or a
///   key that is not valid UTF-8 (with the offset of the first bad byte), NaN and the infinities,
///   and nesting deeper than ``depthLimit``. JSON text is Unicode; writing U+FFFD or `null` instead
///   would lose data without saying so.
///
/// > Important: A Lua string may hold any bytes; JSON cannot. Keep binary data (hashes, images)
/// > out of values you save, or encode it as text first (hex, base64).
public struct LuaJSONEncoder: Sendable {
  /// Write one key or element per line, indented by two spaces.
  public var prettyPrinted: Bool
  /// The deepest nesting of tables written: the same rule as ``LuaVM/Limits/dataDepth``, whose
  /// default it has, so what a VM can read, this can write.
  public var depthLimit: Int

  /// An encoder; compact by default.
  public init(prettyPrinted: Bool = false, depthLimit: Int = LuaVM.Limits.default.dataDepth) {
    self.prettyPrinted = prettyPrinted
    self.depthLimit = depthLimit
  }

  /// `value` as JSON text.
  ///
  /// - Parameter root: How errors name the value (`state` gives `state.todos[3].title`).
  public func encode(_ value: LuaValue, root: String = "") throws(LuaJSONError) -> [UInt8] {
    var writer = JSONWriter(prettyPrinted: prettyPrinted, depthLimit: depthLimit)
    do {
      try writer.write(value, depth: 0)
    } catch {
      var error = error
      error.path = LuaPath(root: root, components: writer.path.map(\.component))
      throw error
    }
    return writer.bytes
  }

  /// `value` as JSON text, in a Swift string (see ``encode(_:root:)``).
  public func encodeText(_ value: LuaValue, root: String = "") throws(LuaJSONError) -> String {
    String(decoding: try encode(value, root: root), as: UTF8.self)
  }
}

/// The text being written, and the path to the value being written (for errors).
struct JSONWriter {
  enum Step {
    case key(LuaString)
    case index(Int)

    var component: LuaPath.Component {
      switch self {
      case let .key(key): .key(key.lossyString)
      case let .index(index): .index(index)
      }
    }
  }

  let prettyPrinted: Bool
  let depthLimit: Int
  var bytes: [UInt8] = []
  var path: [Step] = []

  init(prettyPrinted: Bool, depthLimit: Int) {
    self.prettyPrinted = prettyPrinted
    self.depthLimit = depthLimit
    bytes.reserveCapacity(256)
  }

  /// Writes `value`; on failure `path` is where the failing value is (the error's path is set by
  /// the caller from it).
  mutating func write(_ value: LuaValue, depth: Int) throws(LuaJSONError) {
    switch value {
    case .nil: append("null")
    case let .boolean(bool): append(bool ? "true" : "false")
    case let .integer(integer): append(String(integer))
    case let .number(number): try write(number)
    case let .string(string): try writeString(string.bytes, key: nil)
    case let .array(elements):
      try enter(depth)
      bytes.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        path.append(.index(offset + 1))
        try write(element, depth: depth + 1)
        path.removeLast()
      }
      if !elements.isEmpty { newline(depth) }
      bytes.append(UInt8(ascii: "]"))
    case let .table(entries):
      try enter(depth)
      bytes.append(UInt8(ascii: "{"))
      // NB: LuaString orders by bytes: the order never depends on Unicode equivalence or locale.
      for (offset, key) in entries.keys.sorted().enumerated() {
        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        try writeString(key.bytes, key: key)
        bytes.append(UInt8(ascii: ":"))
        if prettyPrinted { bytes.append(UInt8(ascii: " ")) }
        path.append(.key(key))
        try write(entries[key]!, depth: depth + 1)
        path.removeLast()
      }
      if !entries.isEmpty { newline(depth) }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  private func enter(_ depth: Int) throws(LuaJSONError) {
    guard depth < depthLimit else { throw LuaJSONError(path: LuaPath(root: ""), problem: .tooDeep(limit: depthLimit)) }
  }

  private mutating func write(_ number: Double) throws(LuaJSONError) {
    guard number.isFinite else { throw LuaJSONError(path: LuaPath(root: ""), problem: .notFinite(number)) }
    // NB: Swift prints the shortest text that reads back as the same Double, marked as a float
    //     ("3.0", "1e-05"); the check keeps that mark whatever the formatting does.
    let text = number.description
    append(text)
    if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
      append(".0")
    }
  }

  /// Writes a JSON string; `key` is set when these are a key's bytes (for the error).
  private mutating func writeString(_ string: [UInt8], key: LuaString?) throws(LuaJSONError) {
    let invalid: Int? = string.withUnsafeBufferPointer { buffer in
      // NB: ASCII needs no check; most keys and strings are ASCII.
      buffer.allSatisfy { $0 < 0x80 } ? nil : UTF8Check.firstInvalidOffset(buffer)
    }
    if let invalid {
      let problem: LuaJSONError.Problem =
        key.map { .invalidUTF8Key($0, offset: invalid, byte: string[invalid]) }
        ?? .invalidUTF8(offset: invalid, byte: string[invalid])
      throw LuaJSONError(path: LuaPath(root: ""), problem: problem)
    }
    bytes.append(UInt8(ascii: "\""))
    for byte in string {
      switch byte {
      case UInt8(ascii: "\""): append("\\\"")
      case UInt8(ascii: "\\"): append("\\\\")
      case UInt8(ascii: "\n"): append("\\n")
      case UInt8(ascii: "\r"): append("\\r")
      case UInt8(ascii: "\t"): append("\\t")
      case 0x08: append("\\b")
      case 0x0C: append("\\f")
      case 0..<0x20: append("\\u00" + LuaLiteral.hex(byte).lowercased())
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private mutating func newline(_ depth: Int) {
    guard prettyPrinted else { return }
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
  }

  private mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }
}
