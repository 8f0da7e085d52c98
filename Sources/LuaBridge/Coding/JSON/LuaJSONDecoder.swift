/// Reads JSON text (UTF-8 bytes) as a ``LuaValue``: the reverse of ``LuaJSONEncoder``.
///
/// ```swift
/// let value = try LuaJSONDecoder().decode(Array(#"{"count":3,"ratio":0.5}"#.utf8))
/// value   // ["count": .integer(3), "ratio": .number(0.5)]
/// ```
///
/// - **Keys are bytes.** `"\u00e9"` and `"e\u0301"` are two keys; an object that has the same key
///   twice (the same bytes once escapes are read: `"\u0061"` is `"a"`) is an error naming the key,
///   never a silent choice of one value.
/// - **Numbers**: an integer (no `.`, `e` or `E`) that fits in 64 bits is `.integer`; anything else
///   is `.number`, as Lua reads numerals (`3.0`, `1e2`, and `9223372036854775808` are floats). A
///   number too large for a `Double` (`1e400`) is an error.
/// - **`null`** is `.nil`, also inside arrays and as a table's value. `[]` is `.array([])`, `{}` is
///   `.table([:])`.
/// - **Strings** must be valid UTF-8, and `\u` escapes must be characters (a lone surrogate is an
///   error). A leading byte-order mark is skipped.
/// - Nesting deeper than ``depthLimit`` is an error, so what is read can be handed to a VM with the
///   same data limit.
///
/// Errors are ``LuaJSONError``s with the byte offset in the text and the path in the document.
public struct LuaJSONDecoder: Sendable {
  /// The deepest nesting of arrays and objects read (the VM's ``LuaVM/Limits/dataDepth`` rule).
  public var depthLimit: Int

  /// A decoder.
  public init(depthLimit: Int = LuaVM.Limits.default.dataDepth) {
    self.depthLimit = depthLimit
  }

  /// The value `bytes` hold.
  ///
  /// - Parameter root: How errors name the document (`settings` gives `settings.theme`).
  public func decode(_ bytes: [UInt8], root: String = "") throws(LuaJSONError) -> LuaValue {
    let result: Result<LuaValue, LuaJSONError> = bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(text: buffer, depthLimit: depthLimit)
      do throws(LuaJSONError) {
        return .success(try parser.document())
      } catch {
        var error = error
        error.path = LuaPath(root: root, components: parser.path.map(\.component))
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The value the JSON text `text` holds (see ``decode(_:root:)``).
  public func decode(_ text: String, root: String = "") throws(LuaJSONError) -> LuaValue {
    try decode(Array(text.utf8), root: root)
  }
}
