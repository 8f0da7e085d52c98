import CLuaShim

/// Describes values to push onto a Lua stack, for ``LuaPushable`` conformances.
///
/// A writer records a small program of values (scalars, strings, arrays, tables, references). The
/// VM then pushes the whole program inside one protected call, so an allocation failure while
/// building strings and tables becomes a ``LuaError`` of kind ``LuaError/Kind/memory`` instead of a
/// `longjmp` through Swift. That is also why writing is cheap: no Lua call per value.
///
/// ```swift
/// struct Point: LuaPushable {
///   var x, y: Double
///   func write(to writer: inout LuaWriter) throws(LuaConversionError) {
///     writer.beginTable(sizeHint: 2)
///     writer.key("x"); writer.write(x)
///     writer.key("y"); writer.write(y)
///     writer.endTable()
///   }
/// }
/// ```
///
/// > Important: Inside a table every value follows a ``key(_:)``; inside an array values follow
/// > each other (write `nil` for a hole). Each `begin…` needs its `end…`. A malformed program is
/// > reported as an error when pushed, never as a crash.
public struct LuaWriter {
  var bytes: [UInt8]
  /// The VM whose references this program may contain.
  let owner: ObjectIdentifier
  /// The nesting limit of the owning VM.
  public let depthLimit: Int

  init(bytes: [UInt8], owner: ObjectIdentifier, depthLimit: Int) {
    self.bytes = bytes
    self.owner = owner
    self.depthLimit = depthLimit
  }

  /// Writes `nil` (a hole inside an array).
  public mutating func writeNil() { bytes.append(UInt8(LUNAR_OP_NIL)) }

  /// Writes a boolean.
  public mutating func write(_ value: Bool) {
    bytes.append(UInt8(value ? LUNAR_OP_TRUE : LUNAR_OP_FALSE))
  }

  /// Writes an integer (Lua's integer subtype).
  public mutating func write(_ value: Int64) {
    bytes.append(UInt8(LUNAR_OP_INTEGER))
    appendRaw(value)
  }

  /// Writes a float (Lua's float subtype), also for integral values: `3.0` stays a float.
  public mutating func write(_ value: Double) {
    bytes.append(UInt8(LUNAR_OP_NUMBER))
    appendRaw(value)
  }

  /// Writes a string from Swift text (its UTF-8 bytes).
  public mutating func write(_ value: some StringProtocol) {
    bytes.append(UInt8(LUNAR_OP_STRING))
    appendString(value)
  }

  /// Writes a byte string.
  public mutating func write(_ value: LuaString) {
    bytes.append(UInt8(LUNAR_OP_STRING))
    appendRaw(UInt32(truncatingIfNeeded: value.bytes.count))
    bytes.append(contentsOf: value.bytes)
  }

  /// Starts an array; `sizeHint` preallocates (it need not be exact).
  public mutating func beginArray(sizeHint: Int = 0) {
    bytes.append(UInt8(LUNAR_OP_ARRAY))
    appendRaw(UInt32(clamping: sizeHint))
  }

  /// Ends the innermost array.
  public mutating func endArray() { bytes.append(UInt8(LUNAR_OP_END)) }

  /// Starts a table with string keys; `sizeHint` preallocates.
  public mutating func beginTable(sizeHint: Int = 0) {
    bytes.append(UInt8(LUNAR_OP_TABLE))
    appendRaw(UInt32(clamping: sizeHint))
  }

  /// Writes the key of the next table entry (a `nil` value after it means "no entry").
  public mutating func key(_ key: some StringProtocol) {
    bytes.append(UInt8(LUNAR_OP_STRING))
    appendString(key)
  }

  /// Writes the key of the next table entry, as bytes.
  public mutating func key(_ key: LuaString) {
    bytes.append(UInt8(LUNAR_OP_STRING))
    appendRaw(UInt32(truncatingIfNeeded: key.bytes.count))
    bytes.append(contentsOf: key.bytes)
  }

  /// Ends the innermost table.
  public mutating func endTable() { bytes.append(UInt8(LUNAR_OP_END)) }

  /// Writes the value held by a reference.
  public mutating func write(_ reference: LuaRef) throws(LuaConversionError) {
    guard ObjectIdentifier(reference.vm) == owner else {
      throw LuaConversionError(path: LuaPath(root: ""), problem: .foreignReference)
    }
    writeRef(reference.id)
  }

  mutating func writeRef(_ id: Int32) {
    bytes.append(UInt8(LUNAR_OP_REF))
    appendRaw(id)
  }

  var count: Int { bytes.count }

  /// Rewrites the size hint of a container started at `offset`.
  mutating func patchHint(at offset: Int, _ hint: Int) {
    let value = UInt32(clamping: hint)
    withUnsafeBytes(of: value) { raw in
      for i in 0..<4 { bytes[offset + 1 + i] = raw[i] }
    }
  }

  @inline(__always)
  private mutating func appendRaw<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  @inline(__always)
  private mutating func appendRaw(_ value: Double) {
    appendRaw(value.bitPattern)
  }

  @inline(__always)
  private mutating func appendString(_ value: some StringProtocol) {
    var value = String(value)
    value.withUTF8 { utf8 in
      appendRaw(UInt32(truncatingIfNeeded: utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }
}
