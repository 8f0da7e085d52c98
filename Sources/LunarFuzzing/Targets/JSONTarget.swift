import LuaBridge

extension FuzzTarget {
  /// JSON text, as every JSON reader of Lunar reads it (input lines, recordings, devtools messages,
  /// storage and shared files). A document it accepts must write back and read again as the same
  /// value.
  static let json = FuzzTarget(name: "json", summary: "a JSON document, read, written and read again") { input in
    guard let value = try? LuaJSONDecoder().decode(input) else { return }
    let written: [UInt8]
    do {
      written = try LuaJSONEncoder().encode(value)
    } catch {
      fuzzFailure("a value read from JSON cannot be written back: \(error)", input: input)
    }
    guard let again = try? LuaJSONDecoder().decode(written), again == value else {
      fuzzFailure("JSON written from a value does not read back as that value", input: input)
    }
  }
}
