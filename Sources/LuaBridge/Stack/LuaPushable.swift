/// A Swift value that can be pushed onto a Lua stack: arguments of calls, results of host
/// functions, values stored in tables.
///
/// ```swift
/// try vm.call(reduce, stateTable, ["type": "increment"] as LuaValue, 42, "text", LuaEncoded(todo))
/// ```
///
/// Conforming types: ``LuaValue``, ``LuaString``, `String`, `Bool`, `Int`, `Int64`, `Double`,
/// `Optional` of any of these (`nil` pushes nil), references (``LuaRef``, ``LuaTable``,
/// ``LuaFunction``) and ``LuaEncoded`` for any `Encodable`. Conform your own types by writing to a
/// ``LuaWriter``.
public protocol LuaPushable {
  /// Describes this value to `writer`. Throws when the value cannot be represented in Lua (too
  /// deep, a number out of range, a reference of another VM).
  func write(to writer: inout LuaWriter) throws(LuaConversionError)
}

extension LuaValue: LuaPushable {
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) {
    try write(to: &writer, depth: 0)
  }

  private func write(to writer: inout LuaWriter, depth: Int) throws(LuaConversionError) {
    switch self {
    case .nil: writer.writeNil()
    case .boolean(let b): writer.write(b)
    case .integer(let i): writer.write(i)
    case .number(let d): writer.write(d)
    case .string(let s): writer.write(s)
    case .array(let elements):
      guard depth < writer.depthLimit else {
        throw LuaConversionError(path: LuaPath(root: ""), problem: .tooDeep(limit: writer.depthLimit))
      }
      writer.beginArray(sizeHint: elements.count)
      for (offset, element) in elements.enumerated() {
        do { try element.write(to: &writer, depth: depth + 1) } catch { throw error.prefixed(by: .index(offset + 1)) }
      }
      writer.endArray()
    case .table(let entries):
      guard depth < writer.depthLimit else {
        throw LuaConversionError(path: LuaPath(root: ""), problem: .tooDeep(limit: writer.depthLimit))
      }
      writer.beginTable(sizeHint: entries.count)
      // NB: by index, the key and value read in place: iterating the pairs copies (retains and
      //     releases) each key and value.
      var index = entries.startIndex
      while index != entries.endIndex {
        writer.key(entries.keys[index])
        // NB: scalar values are written here, without a recursive call (and its copy of the
        //     value) each: actions are mostly flat tables of scalars.
        switch entries.values[index] {
        case .nil: writer.writeNil()
        case .boolean(let b): writer.write(b)
        case .integer(let i): writer.write(i)
        case .number(let d): writer.write(d)
        case .string(let s): writer.write(s)
        case .array, .table:
          do {
            try entries.values[index].write(to: &writer, depth: depth + 1)
          } catch {
            throw error.prefixed(by: .key(entries.keys[index].lossyString))
          }
        }
        entries.formIndex(after: &index)
      }
      writer.endTable()
    }
  }
}

extension LuaConversionError {
  /// The same error one level further from the root (paths are built while unwinding, so the
  /// successful path costs nothing).
  func prefixed(by component: LuaPath.Component) -> LuaConversionError {
    var copy = self
    copy.path.components.insert(component, at: 0)
    return copy
  }

  /// The same error under another root name (also for the other end of a cycle).
  func rooted(at root: String) -> LuaConversionError {
    var copy = self
    copy.path.root = root
    if case .cycle(var first) = problem {
      first.root = root
      copy.problem = .cycle(firstSeenAt: first)
    }
    return copy
  }
}

extension LuaString: LuaPushable {
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) { writer.write(self) }
}

extension String: LuaPushable {
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) { writer.write(self) }
}

extension Bool: LuaPushable {
  @inlinable
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) { writer.write(self) }
}

extension Int: LuaPushable {
  @inlinable
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) { writer.write(Int64(self)) }
}

extension Int64: LuaPushable {
  @inlinable
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) { writer.write(self) }
}

extension Double: LuaPushable {
  @inlinable
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) { writer.write(self) }
}

extension Optional: LuaPushable where Wrapped: LuaPushable {
  public func write(to writer: inout LuaWriter) throws(LuaConversionError) {
    switch self {
    case .none: writer.writeNil()
    case .some(let wrapped): try wrapped.write(to: &writer)
    }
  }
}

/// Pushes any `Encodable` value as Lua data, through ``LuaEncoder``.
///
/// ```swift
/// try vm.call(render, LuaEncoded(todos))   // an array of tables
/// ```
public struct LuaEncoded<Value: Encodable>: LuaPushable {
  /// The value to encode.
  public var value: Value
  /// The encoder to use.
  public var encoder: LuaEncoder

  /// Wraps `value` for pushing.
  public init(_ value: Value, encoder: LuaEncoder = LuaEncoder()) {
    self.value = value
    self.encoder = encoder
  }

  public func write(to writer: inout LuaWriter) throws(LuaConversionError) {
    try encoder.write(value, to: &writer)
  }
}
