/// A strict JSON parser (RFC 8259) over bytes, building ``LuaValue``s. Recursive, bounded by the
/// depth limit; errors carry the byte offset where reading stopped.
struct JSONParser {
  let text: UnsafeBufferPointer<UInt8>
  let depthLimit: Int
  var index = 0
  /// Where in the document the value being read is (for errors).
  var path: [JSONWriter.Step] = []

  init(text: UnsafeBufferPointer<UInt8>, depthLimit: Int) {
    self.text = text
    self.depthLimit = depthLimit
  }

  /// The one value of the text, with nothing but white space around it.
  mutating func document() throws(LuaJSONError) -> LuaValue {
    // NB: a byte-order mark is not JSON, but editors write it; it carries no data.
    if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF { index = 3 }
    skipSpace()
    guard index < text.count else { throw failure("the text is empty; expected a JSON value") }
    let value = try self.value(depth: 0)
    skipSpace()
    guard index == text.count else { throw failure("unexpected \(found) after the value") }
    return value
  }

  private mutating func value(depth: Int) throws(LuaJSONError) -> LuaValue {
    guard index < text.count else { throw failure("the text ends where a value was expected") }
    switch text[index] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(LuaString(bytes: try string()))
    case UInt8(ascii: "t"): try literal("true"); return .boolean(true)
    case UInt8(ascii: "f"): try literal("false"); return .boolean(false)
    case UInt8(ascii: "n"): try literal("null"); return .nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw failure("expected a JSON value, found \(found)")
    }
  }

  private mutating func object(depth: Int) throws(LuaJSONError) -> LuaValue {
    guard depth < depthLimit else { throw LuaJSONError(path: LuaPath(root: ""), problem: .tooDeep(limit: depthLimit), offset: index) }
    index += 1
    var entries: [LuaString: LuaValue] = [:]
    skipSpace()
    if index < text.count, text[index] == UInt8(ascii: "}") {
      index += 1
      return .table(entries)
    }
    while true {
      skipSpace()
      guard index < text.count, text[index] == UInt8(ascii: "\"") else {
        throw failure("expected a key (a string in double quotes), found \(found)")
      }
      let keyOffset = index
      let key = LuaString(bytes: try string())
      // NB: compared as bytes: two spellings of one character are two keys, and one key twice
      //     is refused rather than one value kept at random.
      guard entries[key] == nil else {
        throw LuaJSONError(path: LuaPath(root: ""), problem: .duplicateKey(key), offset: keyOffset)
      }
      skipSpace()
      guard index < text.count, text[index] == UInt8(ascii: ":") else {
        throw failure("expected ':' after the key \(LuaLiteral.quote(key)), found \(found)")
      }
      index += 1
      skipSpace()
      path.append(.key(key))
      entries[key] = try value(depth: depth + 1)
      path.removeLast()
      skipSpace()
      guard index < text.count else { throw failure("the text ends inside an object; expected ',' or '}'") }
      switch text[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"): index += 1; return .table(entries)
      default: throw failure("expected ',' or '}' after a value in an object, found \(found)")
      }
    }
  }

  private mutating func array(depth: Int) throws(LuaJSONError) -> LuaValue {
    guard depth < depthLimit else { throw LuaJSONError(path: LuaPath(root: ""), problem: .tooDeep(limit: depthLimit), offset: index) }
    index += 1
    var elements: [LuaValue] = []
    skipSpace()
    if index < text.count, text[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipSpace()
      path.append(.index(elements.count + 1))
      elements.append(try value(depth: depth + 1))
      path.removeLast()
      skipSpace()
      guard index < text.count else { throw failure("the text ends inside an array; expected ',' or ']'") }
      switch text[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"): index += 1; return .array(elements)
      default: throw failure("expected ',' or ']' after an element of an array, found \(found)")
      }
    }
  }

  /// The bytes of the string starting at `index` (a `"`), escapes resolved.
  private mutating func string() throws(LuaJSONError) -> [UInt8] {
    index += 1
    var bytes: [UInt8] = []
    var runStart = index
    while index < text.count {
      let byte = text[index]
      switch byte {
      case UInt8(ascii: "\""):
        try appendRun(from: runStart, to: &bytes)
        index += 1
        return bytes
      case UInt8(ascii: "\\"):
        try appendRun(from: runStart, to: &bytes)
        try escape(into: &bytes)
        runStart = index
      case 0..<0x20:
        throw failure("a control character (\(LuaJSONError.hex(byte))) inside a string must be escaped")
      default:
        index += 1
      }
    }
    throw failure("the text ends inside a string")
  }

  /// Appends the raw bytes `runStart..<index`, which must be valid UTF-8.
  private func appendRun(from runStart: Int, to bytes: inout [UInt8]) throws(LuaJSONError) {
    guard runStart < index else { return }
    let run = UnsafeBufferPointer(rebasing: text[runStart..<index])
    if let invalid = UTF8Check.firstInvalidOffset(run) {
      let offset = runStart + invalid
      throw LuaJSONError(path: LuaPath(root: ""), problem: .invalidUTF8(offset: offset, byte: text[offset]), offset: offset)
    }
    bytes.append(contentsOf: run)
  }

  private mutating func escape(into bytes: inout [UInt8]) throws(LuaJSONError) {
    index += 1
    guard index < text.count else { throw failure("the text ends inside an escape") }
    let letter = text[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(letter)
    case UInt8(ascii: "b"): bytes.append(0x08)
    case UInt8(ascii: "f"): bytes.append(0x0C)
    case UInt8(ascii: "n"): bytes.append(0x0A)
    case UInt8(ascii: "r"): bytes.append(0x0D)
    case UInt8(ascii: "t"): bytes.append(0x09)
    case UInt8(ascii: "u"):
      let start = index - 2
      var scalar = try hexQuad()
      if (0xD800...0xDBFF).contains(scalar) {
        // NB: a character outside the first plane is written as two escapes (a surrogate pair).
        guard index + 1 < text.count, text[index] == UInt8(ascii: "\\"), text[index + 1] == UInt8(ascii: "u") else {
          throw failure("\\u\(String(scalar, radix: 16)) is half of a surrogate pair, without its other half", at: start)
        }
        index += 2
        let low = try hexQuad()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw failure("\\u\(String(scalar, radix: 16)) is half of a surrogate pair, without its other half", at: start)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw failure("\\u\(String(scalar, radix: 16)) is half of a surrogate pair, without its other half", at: start)
      }
      bytes.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
    default:
      throw failure("\\\(Self.describe(letter)) is not a JSON escape", at: index - 2)
    }
  }

  private mutating func hexQuad() throws(LuaJSONError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < text.count, let digit = Self.hexValue(text[index]) else {
        throw failure("\\u must be followed by four hexadecimal digits")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private mutating func number() throws(LuaJSONError) -> LuaValue {
    let start = index
    var isFloat = false
    if text[index] == UInt8(ascii: "-") { index += 1 }
    // NB: JSON's grammar: no leading zeros, no '+', no bare '.', digits on both sides of '.'.
    guard index < text.count, Self.isDigit(text[index]) else { throw failure("expected a digit in a number", at: index) }
    if text[index] == UInt8(ascii: "0") {
      index += 1
      if index < text.count, Self.isDigit(text[index]) { throw failure("a number cannot start with 0", at: start) }
    } else {
      skipDigits()
    }
    if index < text.count, text[index] == UInt8(ascii: ".") {
      isFloat = true
      index += 1
      guard index < text.count, Self.isDigit(text[index]) else { throw failure("expected a digit after '.' in a number") }
      skipDigits()
    }
    if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
      isFloat = true
      index += 1
      if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
      guard index < text.count, Self.isDigit(text[index]) else { throw failure("expected a digit in the exponent of a number") }
      skipDigits()
    }
    let numeral = String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)
    // NB: as Lua reads numerals: an integer that does not fit in 64 bits becomes a float.
    if !isFloat, let integer = Int64(numeral) { return .integer(integer) }
    guard let number = Double(numeral), number.isFinite else {
      throw LuaJSONError(path: LuaPath(root: ""), problem: .numberOutOfRange(numeral), offset: start)
    }
    return .number(number)
  }

  private mutating func literal(_ word: StaticString) throws(LuaJSONError) {
    let start = index
    let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for byte in bytes {
      guard index < text.count, text[index] == byte else { throw failure("expected a JSON value, found \(found(at: start))", at: start) }
      index += 1
    }
  }

  private mutating func skipDigits() {
    while index < text.count, Self.isDigit(text[index]) { index += 1 }
  }

  private mutating func skipSpace() {
    while index < text.count {
      switch text[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
      default: return
      }
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// What is at `index`, for messages: `'x'`, `a byte 0xFF`, or `the end of the text`.
  private var found: String { found(at: index) }

  private func found(at offset: Int) -> String {
    guard offset < text.count else { return "the end of the text" }
    return Self.describe(text[offset])
  }

  private static func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "the byte \(LuaJSONError.hex(byte))"
  }

  private func failure(_ message: String, at offset: Int? = nil) -> LuaJSONError {
    LuaJSONError(path: LuaPath(root: ""), problem: .syntax(message), offset: offset ?? index)
  }
}
