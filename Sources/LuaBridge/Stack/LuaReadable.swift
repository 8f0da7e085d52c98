import CLua
import CLuaShim

/// A Swift type that can be read from a Lua stack slot: results of calls, fields of tables.
///
/// Conforming types: ``LuaValue`` (data), ``LuaRef``/``LuaTable``/``LuaFunction`` (by reference),
/// `Int`, `Int64`, `Double`, `Bool`, `String`, ``LuaString``, and `Optional` of those (nil reads as
/// `nil`).
public protocol LuaReadable {
  /// Reads the value in `slot`.
  static func read(from slot: LuaSlot) throws(LuaError) -> Self
}

/// One value on a Lua stack, valid only during ``LuaReadable/read(from:)``.
public struct LuaSlot {
  /// The VM.
  public let vm: LuaVM
  let state: OpaquePointer
  let index: Int32
  /// What the value is called in errors (`result #1`, `argument #2`).
  public let root: String

  @usableFromInline
  init(vm: LuaVM, state: OpaquePointer, index: Int32, root: String) {
    self.vm = vm
    self.state = state
    self.index = lua_absindex(state, index)
    self.root = root
  }

  /// The value's Lua type.
  public var type: LuaType { LuaType(lua_type(state, index)) }

  /// The value as data.
  public func value() throws(LuaError) -> LuaValue {
    try vm.readValue(at: index, root: root, on: state)
  }

  /// A registry reference to the value.
  public func reference() throws(LuaError) -> LuaRef {
    guard lua_checkstack(state, 1) != 0 else { throw LuaError(kind: .memory, message: "not enough stack space") }
    lua_pushvalue(state, index)
    var id: Int32 = 0
    let status = lunar_ref(state, &id)
    guard status == LUA_OK else { throw vm.takeError(status: status, from: state) }
    return LuaRef(vm: vm, id: id, type: type)
  }

  /// A conversion error saying what was expected here.
  public func mismatch(expected: String) -> LuaError {
    LuaError(LuaConversionError(path: LuaPath(root: root), problem: .typeMismatch(expected: expected, found: describedType)))
  }

  var describedType: String {
    if lua_type(state, index) == LUA_TNUMBER { return lua_isinteger(state, index) != 0 ? "an integer" : "a float" }
    return type == .nil ? "nil" : "a " + type.rawValue
  }
}

extension LuaValue: LuaReadable {
  public static func read(from slot: LuaSlot) throws(LuaError) -> LuaValue { try slot.value() }
}

extension Int64: LuaReadable {
  /// Integers, and floats with an exact integer value.
  public static func read(from slot: LuaSlot) throws(LuaError) -> Int64 {
    guard let i = try slot.scalar().integerValue else { throw slot.mismatch(expected: "an integer") }
    return i
  }
}

extension Int: LuaReadable {
  public static func read(from slot: LuaSlot) throws(LuaError) -> Int { Int(try Int64.read(from: slot)) }
}

extension Double: LuaReadable {
  public static func read(from slot: LuaSlot) throws(LuaError) -> Double {
    guard let d = try slot.scalar().numberValue else { throw slot.mismatch(expected: "a number") }
    return d
  }
}

extension Bool: LuaReadable {
  /// Only booleans (Lua's truthiness would turn every non-nil value into `true`).
  public static func read(from slot: LuaSlot) throws(LuaError) -> Bool {
    guard let b = try slot.scalar().boolValue else { throw slot.mismatch(expected: "a boolean") }
    return b
  }
}

extension LuaString: LuaReadable {
  public static func read(from slot: LuaSlot) throws(LuaError) -> LuaString {
    guard case .string(let s) = try slot.scalar() else { throw slot.mismatch(expected: "a string") }
    return s
  }
}

extension String: LuaReadable {
  /// Strings that are valid UTF-8 (numbers are not converted).
  public static func read(from slot: LuaSlot) throws(LuaError) -> String {
    let bytes = try LuaString.read(from: slot)
    guard let text = bytes.string else {
      throw LuaError(LuaConversionError(path: LuaPath(root: slot.root), problem: .invalidUTF8))
    }
    return text
  }
}

extension Optional: LuaReadable where Wrapped: LuaReadable {
  public static func read(from slot: LuaSlot) throws(LuaError) -> Wrapped? {
    slot.type == .nil ? nil : try Wrapped.read(from: slot)
  }
}

extension LuaSlot {
  /// The value if it is a scalar (tables are not read, so reading a number never walks a table).
  func scalar() throws(LuaError) -> LuaValue {
    type == .table ? .array([]) : try value()
  }
}
