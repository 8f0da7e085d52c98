/// Random calls of the library functions Lunar rewrites to count their work (pattern matching,
/// the table library, `string.format`/`rep`/`byte`/`char`), as Lua chunks, for the differential
/// test against stock `lua5.4`. Seeded: a seed gives the same cases on every machine. Some cases
/// are malformed on purpose (a pattern missing its `]`, a position out of bounds): their error
/// messages are compared too.
struct LibraryCases {
  var random: SeededGenerator

  init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  mutating func next() -> String {
    switch int(0..<14) {
    case 0, 1: return find()
    case 2: return match()
    case 3: return gmatch()
    case 4, 5: return gsub()
    case 6: return insertOrRemove()
    case 7: return concat()
    case 8: return sort()
    case 9: return move()
    case 10: return unpack()
    case 11: return format()
    case 12: return repeated()
    default: return bytesAndChars()
    }
  }

  // MARK: - string patterns

  mutating func find() -> String {
    let plain = int(0..<5) == 0 ? ", true" : ""
    return "return string.find(\(subject()), \(pattern()), \(position())\(plain))"
  }

  mutating func match() -> String {
    "return string.match(\(subject()), \(pattern())\(int(0..<2) == 0 ? ", \(position())" : ""))"
  }

  mutating func gmatch() -> String {
    """
    local r = {} for a, b in string.gmatch(\(subject()), \(pattern())) do r[#r + 1] = {a, b} \
    if #r > 50 then break end end return r
    """
  }

  mutating func gsub() -> String {
    let replacement: String
    switch int(0..<4) {
    case 0: replacement = literal(pick(["%0", "<%1>", "%2%1", "%%", "x", "", "%z", "%"]))
    case 1: replacement = "{a = \"A\", b = false, [\"(\"] = 1, c = {}}"
    case 2: replacement = "function(a, b) if a == \"b\" then return nil end return (b or \"\") .. \"!\" end"
    default: replacement = "function(a) return a == \"a\" and {} or false end"
    }
    let limit = int(0..<3) == 0 ? ", \(int(-1..<4))" : ""
    return "return string.gsub(\(subject()), \(pattern()), \(replacement)\(limit))"
  }

  mutating func subject() -> String {
    let alphabet: [String] = ["a", "a", "b", "b", "c", "(", ")", ".", "1", "2", " ", "%", "-", "]", "\u{0}", "é"]
    return literal((0..<int(0..<14)).map { _ in pick(alphabet) }.joined())
  }

  mutating func pattern() -> String {
    var text = int(0..<5) == 0 ? "^" : ""
    var captures = 0
    for _ in 0..<int(0..<5) {
      switch int(0..<12) {
      case 0:
        text += "(" + atom() + quantifier() + ")"
        captures += 1
      case 1:
        text += "()"
        captures += 1
      case 2: text += captures > 0 ? "%\(int(1..<(captures + 2)))" : "%b()"
      case 3: text += pick(["%b()", "%f[%w]", "%f[%W]", "%f[a]"])
      case 4: text += pick(["[a", "%", "(", ")", "%b", "%f", "[%", "[^"])  // malformed, sometimes
      default: text += atom() + quantifier()
      }
    }
    if int(0..<5) == 0 { text += "$" }
    return literal(text)
  }

  mutating func atom() -> String {
    pick(["a", "b", ".", "%a", "%d", "%s", "%w", "%p", "%%", "%(", "[ab]", "[^a]", "[a-c]", "[%a.]", "[]]", "[^]a]", "%x", "%l", "%u", "%c"])
  }

  mutating func quantifier() -> String { pick(["", "", "*", "+", "-", "?"]) }

  mutating func position() -> String { String(int(-15..<16)) }

  // MARK: - table functions

  mutating func sequence(_ count: Int? = nil) -> String {
    let n = count ?? int(0..<8)
    return "{" + (0..<n).map { _ in String(int(0..<10)) }.joined(separator: ", ") + "}"
  }

  mutating func insertOrRemove() -> String {
    let t = sequence()
    switch int(0..<4) {
    case 0: return "local t = \(t) table.insert(t, \(int(-2..<11))) return t"
    case 1: return "local t = \(t) table.insert(t, \(int(-2..<11)), \"x\") return t"
    case 2: return "local t = \(t) local r = table.remove(t\(int(0..<2) == 0 ? "" : ", \(int(-2..<11))")) return r, t"
    default: return "local t = \(t) table.insert(t, 1, 2, 3) return t"
    }
  }

  mutating func concat() -> String {
    let values = (0..<int(0..<7)).map { _ in pick(["1", "2.5", "\"a\"", "\"\"", "true", "{}", "-0.0", "1e100"]) }
    let t = "{" + values.joined(separator: ", ") + "}"
    switch int(0..<3) {
    case 0: return "return table.concat(\(t))"
    case 1: return "return table.concat(\(t), \(literal(pick([", ", "", "-", "\u{0}"]))))"
    default: return "return table.concat(\(t), \",\", \(int(-1..<8)), \(int(-1..<9)))"
    }
  }

  mutating func sort() -> String {
    let t = int(0..<6) == 0 ? "{3, \"a\", 1}" : sequence(int(0..<40))
    // NB: only strict orders: with an inconsistent comparator, or among equal elements, the
    // manual leaves the order unspecified (and Lunar's sort differs there: lua-differences.md).
    if int(0..<4) == 0 {
      return "local t = \(t) table.sort(t, function(a, b) return a % 3 < b % 3 end) for i = 1, #t do t[i] = t[i] % 3 end return t"
    }
    let comparator = pick(["", ", function(a, b) return a > b end", ", function(a, b) return a < b end"])
    return "local t = \(t) table.sort(t\(comparator)) return t"
  }

  mutating func move() -> String {
    let bound = pick(["math.maxinteger", "math.mininteger", "-1", "0", "1", "2", "3", "5", "9"])
    let f = int(0..<3) == 0 ? bound : String(int(-1..<6))
    // NB: never a range of 2^63 elements that stock would copy for ever: a huge `e` only with a
    // huge `f`.
    let e = f == "math.maxinteger" ? "math.maxinteger" : int(0..<3) == 0 ? pick(["math.mininteger + 1", "0"]) : String(int(-1..<8))
    let target = int(0..<4) == 0 ? pick(["math.maxinteger", "math.mininteger", "-3"]) : String(int(-1..<9))
    let other = int(0..<2) == 0 ? ", \(sequence())" : ""
    return "return table.move(\(sequence()), \(f), \(e), \(target)\(other))"
  }

  mutating func unpack() -> String {
    let i = int(0..<4) == 0 ? pick(["math.mininteger", "-1e6", "1"]) : String(int(-2..<6))
    let j = int(0..<4) == 0 ? pick(["math.maxinteger", "1e7", "nil"]) : String(int(-2..<9))
    return "return table.unpack(\(sequence()), \(i), \(j))"
  }

  // MARK: - string.format, rep, byte, char

  mutating func format() -> String {
    let specs = ["%d", "%5d", "%-5d|", "%x", "%X", "%o", "%i", "%c", "%5.2f", "%e", "%g", "%.3g", "%a", "%s", "%.2s",
                 "%10s|", "%q", "%%", "%y", "%5", "%.200f", "%0100d", "%#x", "%+d", "% d", "%u"]
    let values = ["1", "-7", "255", "3.5", "-0.0", "1e300", "1/0", "0/0", "math.mininteger", "math.maxinteger",
                  "\"a\\0b\"", "\"x\\ny\\\"\"", "2^53", "nil", "true", "\"12\"", "\"1e2\""]
    let count = int(1..<4)
    let spec = (0..<count).map { _ in pick(specs) }.joined(separator: " ")
    let arguments = (0..<count).map { _ in pick(values) }.joined(separator: ", ")
    return "return string.format(\(literal(spec)), \(arguments))"
  }

  mutating func repeated() -> String {
    let separator = int(0..<3) == 0 ? ", \(literal(pick(["-", "", "ab"])))" : ""
    return "return string.rep(\(literal(pick(["", "ab", "x", "\u{0}"]))), \(int(-2..<6))\(separator))"
  }

  mutating func bytesAndChars() -> String {
    if int(0..<2) == 0 {
      return "return string.byte(\(subject()), \(position()), \(position()))"
    }
    let codes = (0..<int(0..<5)).map { _ in pick(["0", "65", "255", "256", "-1", "97.0", "97.5", "\"98\""]) }
    return "return string.char(\(codes.joined(separator: ", ")))"
  }

  // MARK: - helpers

  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }

  mutating func pick(_ choices: [String]) -> String { choices[int(0..<choices.count)] }

  /// A Lua string literal holding `text`'s UTF-8 bytes, every byte but letters and digits escaped
  /// as three decimal digits (so that a digit after an escape is never read as part of it).
  func literal(_ text: String) -> String {
    "\"" + text.utf8.map { byte in
      if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) {
        return String(UnicodeScalar(byte))
      }
      let digits = String(byte)
      return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }.joined() + "\""
  }
}
