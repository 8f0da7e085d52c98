/// Encodes any `Encodable` Swift value as Lua data: a ``LuaValue``, or straight onto a Lua stack
/// through ``LuaEncoded``.
///
/// ```swift
/// struct Todo: Codable { var id: Int; var title: String; var done: Bool }
/// let value = try LuaEncoder().encode([Todo(id: 1, title: "Milk", done: false)])
/// // {{done = false, id = 1, title = "Milk"}}
/// try vm.call(render, LuaEncoded(todos))      // no LuaValue in between
/// ```
///
/// Mapping: structs and dictionaries become tables (keys are the coding keys' strings, so an
/// `[Int: T]` has keys `"1"`, `"2"`…), arrays become arrays (nil elements are holes), integers of
/// every width become Lua integers (a `UInt64` above `Int64.max` is an error), `Float`/`Double`
/// become floats (also when integral), `Optional.none` leaves the key out. Other types use their
/// own `Codable` conformance (a `Date` is a float, `Data` an array of bytes). Errors name the
/// coding path in Lua's terms: `items[3].title` (from 1).
///
/// Pushing directly streams the value into the push program, in the order `encode(to:)` writes
/// it; a type whose `encode(to:)` goes back to a container it left (or uses `superEncoder`) is
/// re-encoded through a ``LuaValue`` instead, with the same result.
public struct LuaEncoder: Sendable {
  /// The deepest nesting accepted.
  public var depthLimit: Int
  /// Passed to `encode(to:)` as `encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable]

  /// An encoder.
  public init(depthLimit: Int = 100, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.depthLimit = depthLimit
    self.userInfo = userInfo
  }

  /// `value` as a ``LuaValue``.
  public func encode<T: Encodable>(_ value: T) throws(LuaConversionError) -> LuaValue {
    if let value = value as? LuaValue { return value }
    let encoder = TreeEncoder(node: TreeNode(), codingPath: [], options: self)
    do {
      try value.encode(to: encoder)
    } catch {
      throw Self.conversionError(error, at: encoder.deepestPath)
    }
    return encoder.node.finish()
  }

  /// Writes `value` to `writer` (the streaming path behind ``LuaEncoded``).
  func write<T: Encodable>(_ value: T, to writer: inout LuaWriter) throws(LuaConversionError) {
    if let value = value as? LuaValue { return try value.write(to: &writer) }
    let start = writer.count
    let options = StreamOptions(depthLimit: min(depthLimit, writer.depthLimit), userInfo: userInfo)
    let outcome = StreamEncoder.encode(value, into: &writer, options: options)
    switch outcome {
    case .written:
      return
    case .failed(let error):
      throw error
    case .needsTree:
      writer.count = start
      try encode(value).write(to: &writer)
    }
  }

  static func conversionError(_ error: any Error, at codingPath: [any CodingKey]) -> LuaConversionError {
    if let error = error as? LuaConversionError { return error }
    if let error = error as? EncodingError, case .invalidValue(_, let context) = error {
      return LuaConversionError(path: LuaPath(codingPath: context.codingPath), problem: .other(context.debugDescription))
    }
    return LuaConversionError(path: LuaPath(codingPath: codingPath), problem: .other(String(describing: error)))
  }
}

extension LuaPath {
  /// A path from a Codable coding path: array positions become 1-based indices.
  init(codingPath: [any CodingKey], root: String = "") {
    self.init(root: root, components: codingPath.map { key in
      if let index = key as? IndexKey { return .index(index.index + 1) }
      if let component = key as? ComponentKey { return component.component }
      return .key(key.stringValue)
    })
  }
}

/// The coding key of an array position (0-based, as Codable counts).
struct IndexKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
  init?(stringValue: String) { return nil }
  init?(intValue: Int) { self.index = intValue }
}

/// Integers of any width as Lua integers.
enum IntegerConversion {
  static func int64<T: BinaryInteger>(_ value: T, at codingPath: [any CodingKey]) throws -> Int64 {
    guard let exact = Int64(exactly: value) else {
      throw LuaConversionError(
        path: LuaPath(codingPath: codingPath),
        problem: .numberOutOfRange(value: String(value), type: "a Lua integer (Int64)"))
    }
    return exact
  }
}
