import LuaBridge

extension FuzzTarget {
  /// JSON text, as every JSON reader of Lunar reads it (input lines, recordings, devtools messages,
  /// storage and shared files). A document it accepts must write back and read again as the same
  /// value, and so must the value conformed to its own ``LuaArrayShape``.
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
    // NB: a shared value's file is conformed to the shape of its default: the document is its own
    //     default here. Conforming twice changes nothing, and what it makes writes and reads back.
    guard let shape = LuaArrayShape(of: value) else { return }
    let conformed = value.conformingArrays(to: shape)
    guard conformed.conformingArrays(to: shape) == conformed else {
      fuzzFailure("conforming a value to its own shape twice changes it again", input: input)
    }
    guard let text = try? LuaJSONEncoder().encode(conformed), (try? LuaJSONDecoder().decode(text)) == conformed else {
      fuzzFailure("a value conformed to its shape does not write and read back as itself", input: input)
    }
  }
}
