import Composable
import Foundation
import LuaBridge

/// The ``SharedKey`` of a `lunar.shared(key, { storage = "file" })` value: `<folder>/<key>.json`,
/// written and read with ``LuaJSONEncoder`` and ``LuaJSONDecoder`` (keys as bytes, exact numbers).
///
/// Loading first claims the folder for this process (``FileStorage/claim``): a second host on the
/// same folder cannot load the value, so it never saves over the first one's changes. A file that
/// cannot be used — not JSON, a key twice, nested deeper than the VM's data limit, or a value of
/// another kind than the declared default (a string where the default is a table) — is renamed
/// aside and the default used. Where the default has a list, an empty table is read as the empty
/// list (`{}` as `[]`), so that it is written back as `[]`.
struct LuaSharedFileKey: SharedKey {
  typealias Value = LuaValue

  let key: String
  let url: URL
  let folder: URL
  private let file: FileStorageKey<LuaValue>

  init(key: String, folder: URL, defaultValue: LuaValue, dataDepth: Int) {
    self.key = key
    self.folder = folder
    self.url = folder.appendingPathComponent("\(key).json")
    let shape = LuaArrayShape(of: defaultValue)
    self.file = .fileStorage(
      url,
      decode: { data in
        let value = try LuaJSONDecoder(depthLimit: dataDepth).decode(Array(data))
        if let mismatch = LuaSharedKind.mismatch(value, expected: defaultValue) { throw mismatch }
        // NB: a file saved with `{}` for an empty list (or written by hand) reads as the list the
        //     default declares there.
        return shape.map(value.conformingArrays(to:)) ?? value
      },
      encode: { value in
        // NB: a newline at the end, as text files have; the same value is always the same bytes.
        Data(try LuaJSONEncoder(prettyPrinted: true, depthLimit: dataDepth).encode(value) + [0x0A])
      }
    )
  }

  // NB: the id of `FileStorageKey` for the same file: Swift code sharing it sees the same value.
  var id: String { file.id }

  func load(default defaultValue: LuaValue, from storage: FileStorage) throws -> LuaValue {
    do {
      try storage.claim(folder)
    } catch {
      throw SharedPersistenceError(.unreadable, url: url, cause: error)
    }
    return try file.load(default: defaultValue, from: storage)
  }

  func save(_ value: LuaValue, to storage: FileStorage) throws {
    try file.save(value, to: storage)
  }
}

/// The kind of value a shared file must hold: the Lua type of the declared default (`nil` accepts
/// anything, and a saved `null` is accepted whatever the default).
enum LuaSharedKind {
  static func mismatch(_ value: LuaValue, expected: LuaValue) -> LuaSharedKindMismatch? {
    let (kind, expectedKind) = (name(value), name(expected))
    guard expectedKind != "nil", kind != "nil", kind != expectedKind else { return nil }
    return LuaSharedKindMismatch(found: kind, expected: expectedKind)
  }

  /// Lua's type name; arrays and keyed tables are both tables, integers and floats both numbers.
  static func name(_ value: LuaValue) -> String {
    switch value {
    case .nil: "nil"
    case .boolean: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .array, .table: "table"
    }
  }
}

/// A shared file holding another kind of value than the declared default.
struct LuaSharedKindMismatch: Error, CustomStringConvertible {
  let found: String
  let expected: String
  var description: String { "it holds a \(found), but the declared default is a \(expected)" }
}
