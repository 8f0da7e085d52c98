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
  @usableFromInline var base: UnsafeMutableRawPointer
  @usableFromInline var count: Int
  @usableFromInline var capacity: Int
  /// The VM whose references this program may contain.
  @usableFromInline let owner: ObjectIdentifier
  /// The VM's reusable buffer, when this writer borrowed it (it goes back on ``LuaVM/recycle(_:)``).
  @usableFromInline let host: UnsafeMutablePointer<lunar_host>?
  /// The nesting limit of the owning VM.
  public let depthLimit: Int

  @usableFromInline
  init(base: UnsafeMutableRawPointer, capacity: Int, owner: ObjectIdentifier, host: UnsafeMutablePointer<lunar_host>?, depthLimit: Int) {
    self.base = base
    self.count = 0
    self.capacity = capacity
    self.owner = owner
    self.host = host
    self.depthLimit = depthLimit
  }

  /// Writes `nil` (a hole inside an array).
  @inlinable
  public mutating func writeNil() { appendOp(LUNAR_OP_NIL) }

  /// Writes a boolean.
  @inlinable
  public mutating func write(_ value: Bool) { appendOp(value ? LUNAR_OP_TRUE : LUNAR_OP_FALSE) }

  /// Writes an integer (Lua's integer subtype).
  @inlinable
  public mutating func write(_ value: Int64) {
    reserve(9)
    base.storeBytes(of: UInt8(LUNAR_OP_INTEGER), toByteOffset: count, as: UInt8.self)
    base.storeBytes(of: value.littleEndian, toByteOffset: count + 1, as: Int64.self)
    count += 9
  }

  /// Writes a float (Lua's float subtype), also for integral values: `3.0` stays a float.
  @inlinable
  public mutating func write(_ value: Double) {
    reserve(9)
    base.storeBytes(of: UInt8(LUNAR_OP_NUMBER), toByteOffset: count, as: UInt8.self)
    base.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: count + 1, as: UInt64.self)
    count += 9
  }

  /// Writes a string from Swift text (its UTF-8 bytes).
  public mutating func write(_ value: some StringProtocol) {
    appendOp(LUNAR_OP_STRING)
    appendString(value)
  }

  /// Writes a byte string.
  @inline(__always)
  public mutating func write(_ value: LuaString) {
    appendOp(LUNAR_OP_STRING)
    value.bytes.withUnsafeBytes { appendCounted($0) }
  }

  /// Starts an array; `sizeHint` preallocates (it need not be exact).
  public mutating func beginArray(sizeHint: Int = 0) {
    appendOp(LUNAR_OP_ARRAY)
    appendU32(UInt32(clamping: sizeHint))
  }

  /// Ends the innermost array.
  public mutating func endArray() { appendOp(LUNAR_OP_END) }

  /// Starts a table with string keys; `sizeHint` preallocates.
  @inline(__always)
  public mutating func beginTable(sizeHint: Int = 0) {
    appendOp(LUNAR_OP_TABLE)
    appendU32(UInt32(clamping: sizeHint))
  }

  /// Writes the key of the next table entry (a `nil` value after it means "no entry").
  public mutating func key(_ key: some StringProtocol) {
    appendOp(LUNAR_OP_STRING)
    appendString(key)
  }

  /// Writes the key of the next table entry, as bytes.
  @inline(__always)
  public mutating func key(_ key: LuaString) {
    appendOp(LUNAR_OP_STRING)
    key.bytes.withUnsafeBytes { appendCounted($0) }
  }

  /// Ends the innermost table.
  @inline(__always)
  public mutating func endTable() { appendOp(LUNAR_OP_END) }

  /// Writes the value held by a reference.
  @inlinable
  public mutating func write(_ reference: LuaRef) throws(LuaConversionError) {
    guard ObjectIdentifier(reference.vm) == owner else {
      throw LuaConversionError(path: LuaPath(root: ""), problem: .foreignReference)
    }
    writeRef(reference.id)
  }

  @inlinable
  mutating func writeRef(_ id: Int32) {
    reserve(5)
    base.storeBytes(of: UInt8(LUNAR_OP_REF), toByteOffset: count, as: UInt8.self)
    base.storeBytes(of: id.littleEndian, toByteOffset: count + 1, as: Int32.self)
    count += 5
  }

  /// Rewrites the size hint of a container started at `offset`.
  mutating func patchHint(at offset: Int, _ hint: Int) {
    base.storeBytes(of: UInt32(clamping: hint).littleEndian, toByteOffset: offset + 1, as: UInt32.self)
  }

  /// The program so far.
  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
  }

  @inlinable
  mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(extra) }
  }

  @usableFromInline
  mutating func grow(_ extra: Int) {
    let newCapacity = max(capacity * 2, count + extra, 256)
    base = lunar_buffer_realloc(base, newCapacity)!
    capacity = newCapacity
  }

  @inlinable
  mutating func appendOp(_ op: Int) {
    reserve(1)
    base.storeBytes(of: UInt8(truncatingIfNeeded: op), toByteOffset: count, as: UInt8.self)
    count += 1
  }

  @inline(__always)
  private mutating func appendU32(_ value: UInt32) {
    reserve(4)
    base.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt32.self)
    count += 4
  }

  // NB: inlined into the writes of strings and keys, the commonest values of actions.
  @inline(__always)
  private mutating func appendCounted(_ raw: UnsafeRawBufferPointer) {
    // NB: 64 bits: a 32-bit length would wrap for a string of 4 GiB, and its tail would be read
    //     as opcodes.
    reserve(8)
    base.storeBytes(of: UInt64(raw.count).littleEndian, toByteOffset: count, as: UInt64.self)
    count += 8
    reserve(raw.count)
    if let source = raw.baseAddress { (base + count).copyMemory(from: source, byteCount: raw.count) }
    count += raw.count
  }

  private mutating func appendString(_ value: some StringProtocol) {
    if let done: Void = value.utf8.withContiguousStorageIfAvailable({ appendCounted(UnsafeRawBufferPointer($0)) }) {
      return done
    }
    var copy = String(value)
    copy.withUTF8 { appendCounted(UnsafeRawBufferPointer($0)) }
  }
}
