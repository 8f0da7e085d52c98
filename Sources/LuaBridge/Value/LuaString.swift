import Foundation

/// A Lua string: a sequence of bytes, which may hold NUL and need not be valid UTF-8.
///
/// Lua strings are byte strings, so ``LuaValue`` stores them as bytes and never loses any. Use
/// ``string`` when you need Swift text; it is `nil` for invalid UTF-8 instead of guessing.
///
/// ```swift
/// let name: LuaString = "Blob"             // from a literal
/// let raw = LuaString(bytes: [0x61, 0x00, 0xFF])
/// name.string                              // "Blob"
/// raw.string                               // nil: 0xFF is not UTF-8
/// raw.description                          // "a\0\u{FFFD}" (lossy, for display only)
/// ```
///
/// > Important: Two Swift strings that are canonically equivalent ("é" and "e" + U+0301) are equal
/// > in Swift but are different Lua strings. `LuaString` compares bytes, as Lua does.
public struct LuaString: Sendable, Hashable, Comparable {
  /// The bytes of the string.
  public var bytes: [UInt8]

  /// The UTF-8 bytes of `string`.
  public init(_ string: some StringProtocol) {
    self.bytes = Array(string.utf8)
  }

  /// A string made of arbitrary bytes.
  public init(bytes: some Sequence<UInt8>) {
    self.bytes = Array(bytes)
  }

  /// The text, or `nil` when the bytes are not valid UTF-8.
  public var string: String? {
    // NB: not `String(validating:as:)`, whose generic path copies the bytes into another array
    //     first (1,000 instructions for a 16-byte effect origin). Decoding replaces invalid bytes
    //     with U+FFFD's, which differ from them: the text is valid exactly when its bytes are ours.
    let text = String(decoding: bytes, as: UTF8.self)
    let same = text.utf8.withContiguousStorageIfAvailable { utf8 in
      bytes.withUnsafeBufferPointer { mine in
        utf8.count == mine.count && (mine.isEmpty || memcmp(utf8.baseAddress!, mine.baseAddress!, mine.count) == 0)
      }
    }
    return same ?? text.utf8.elementsEqual(bytes) ? text : nil
  }

  /// The offset of the first byte that does not start a valid UTF-8 sequence, or `nil` when the
  /// bytes are UTF-8 text (the rule of ``string`` and of ``LuaJSONEncoder``).
  ///
  /// ```swift
  /// LuaString(bytes: [0x61, 0xFF]).firstInvalidUTF8Offset   // 1
  /// ```
  public var firstInvalidUTF8Offset: Int? {
    UTF8Check.firstInvalidOffset(bytes)
  }

  /// The text with invalid UTF-8 replaced by U+FFFD; for display, never for round trips.
  public var lossyString: String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// The text with every byte that is not valid UTF-8 written as Lua's decimal escape, `\ddd`:
  /// what the sandbox's `print` hands the host (``LuaVM/printHandler`` takes text). Valid text is
  /// unchanged, so a backslash followed by three digits is ambiguous; use ``bytes`` to tell.
  ///
  /// ```swift
  /// LuaString(bytes: [0x63, 0x61, 0x66, 0xE9]).printableText   // "caf\233"
  /// ```
  public var printableText: String {
    guard firstInvalidUTF8Offset != nil else { return lossyString }
    return bytes.withUnsafeBufferPointer { all in
      var text = ""
      var rest = all[...]
      while let bad = UTF8Check.firstInvalidOffset(UnsafeBufferPointer(rebasing: rest)) {
        text += String(decoding: UnsafeBufferPointer(rebasing: rest.prefix(bad)), as: UTF8.self)
        text += "\\" + String(rest[rest.startIndex + bad])
        rest = rest.dropFirst(bad + 1)
      }
      return text + String(decoding: UnsafeBufferPointer(rebasing: rest), as: UTF8.self)
    }
  }

  /// The number of bytes (what Lua's `#` returns).
  public var count: Int { bytes.count }

  /// Hashes the bytes in one pass (the synthesized hash feeds them one at a time, and the
  /// snapshot of a Lua feature hashes a key on every action).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(bytes.count)
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  /// Orders by bytes, like C's `strcmp` (Lua's own `<` uses the C locale's collation).
  public static func < (lhs: LuaString, rhs: LuaString) -> Bool {
    lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
  }
}

extension LuaString: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension LuaString: CustomStringConvertible, CustomDebugStringConvertible {
  /// The lossy text (see ``lossyString``).
  public var description: String { lossyString }

  /// A Lua string literal that reads back as the same bytes, e.g. `"a\0\xFF"`.
  public var debugDescription: String { LuaLiteral.quote(self) }
}

extension LuaString: Codable {
  /// Decodes a string (a Swift `Decoder` hands over text, not bytes).
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the text. Bytes that are not valid UTF-8 cannot be a Swift `String`: they throw
  /// `EncodingError.invalidValue` naming the first bad byte, rather than being replaced by U+FFFD.
  /// (``LuaEncoder`` keeps the bytes; ``LuaJSONEncoder`` refuses them with the value's path.)
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(try text(codingPath: encoder.codingPath))
  }
}

/// Writing values as Lua source text.
enum LuaLiteral {
  /// A Lua literal for `s`: valid UTF-8 keeps its characters, other bytes become `\xHH`.
  static func quote(_ s: LuaString) -> String {
    if s.string != nil { return quoteText(s) }
    var out = "\""
    for byte in s.bytes {
      switch byte {
      case UInt8(ascii: "\""): out += "\\\""
      case UInt8(ascii: "\\"): out += "\\\\"
      case UInt8(ascii: "\n"): out += "\\n"
      case UInt8(ascii: "\r"): out += "\\r"
      case UInt8(ascii: "\t"): out += "\\t"
      case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
      default: out += "\\x" + hex(byte)
      }
    }
    return out + "\""
  }

  private static func quoteText(_ s: LuaString) -> String {
    var out = "\""
    for scalar in s.lossyString.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\x" + hex(UInt8(scalar.value))
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }

  /// Whether `s` can be written as a bare field name (`{name = 1}`, `t.name`).
  static func isIdentifier(_ s: LuaString) -> Bool {
    guard let first = s.bytes.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
    let ok = s.bytes.allSatisfy { b in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
    }
    return ok && !keywords.contains(s.lossyString)
  }

  static let keywords: Set<String> = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
  ]
}
