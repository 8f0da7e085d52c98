import CLua
import CLuaShim

/// The arguments of a Swift function called from Lua, read by position (from 1, as in Lua).
///
/// ```swift
/// let fetch = try vm.function(named: "fetch") { args in
///   let n = try args.integer(1)                 // bad argument #1 to 'fetch' (integer expected, got string)
///   let options = try args.optional(2, as: LuaTable.self)
///   return .value("fact about \(n)")
/// }
/// ```
///
/// > Important: Valid only while the function runs; do not keep it.
public struct LuaArguments {
  /// The VM running the call: use it rather than capturing the VM in the closure.
  public let vm: LuaVM
  let state: OpaquePointer
  /// The number of arguments passed.
  public let count: Int
  /// The function's name, used in error messages.
  public let functionName: String

  /// Whether the call runs inside a coroutine that can yield (see ``LuaReturn/yield(_:)``).
  public var canYield: Bool { lua_isyieldable(state) != 0 }

  /// Argument `position` read as `R`.
  public func get<R: LuaReadable>(_ position: Int, as type: R.Type) throws(LuaError) -> R {
    do {
      return try R.read(from: slot(position))
    } catch let error where error.kind == .conversion {
      throw LuaArgumentError(position: position, function: functionName, problem: error.conversion?.explanation ?? error.message)
        .asLuaError
    }
  }

  /// Argument `position` read as `R`, or `nil` if absent or nil.
  public func optional<R: LuaReadable>(_ position: Int, as type: R.Type) throws(LuaError) -> R? {
    try get(position, as: R?.self)
  }

  /// Argument `position` as data.
  public func value(_ position: Int) throws(LuaError) -> LuaValue { try get(position, as: LuaValue.self) }

  /// Argument `position` as an integer (floats with an integral value are accepted).
  public func integer(_ position: Int) throws(LuaError) -> Int64 { try get(position, as: Int64.self) }

  /// Argument `position` as a number.
  public func number(_ position: Int) throws(LuaError) -> Double { try get(position, as: Double.self) }

  /// Argument `position` as UTF-8 text.
  public func string(_ position: Int) throws(LuaError) -> String { try get(position, as: String.self) }

  /// Argument `position` as a boolean.
  public func boolean(_ position: Int) throws(LuaError) -> Bool { try get(position, as: Bool.self) }

  /// Argument `position` as a table reference.
  public func table(_ position: Int) throws(LuaError) -> LuaTable { try get(position, as: LuaTable.self) }

  /// Argument `position` as a function reference.
  public func function(_ position: Int) throws(LuaError) -> LuaFunction { try get(position, as: LuaFunction.self) }

  /// Argument `position` decoded into `T` with ``LuaDecoder``.
  public func decode<T: Decodable>(_ type: T.Type, at position: Int, decoder: LuaDecoder = LuaDecoder()) throws(LuaError) -> T {
    let value = try self.value(position)
    do {
      return try decoder.decode(type, from: value)
    } catch {
      throw LuaArgumentError(position: position, function: functionName, problem: error.description).asLuaError
    }
  }

  private func slot(_ position: Int) -> LuaSlot {
    // NB: positions past `count` read as nil (lua_type gives LUA_TNONE there), as in Lua.
    LuaSlot(vm: vm, state: state, index: Int32(clamping: position), root: "argument #\(position)")
  }

  /// Lua's type of argument `position` (`.nil` when absent).
  public func type(_ position: Int) -> LuaType {
    position >= 1 && position <= count ? LuaType(lua_type(state, Int32(position))) : .nil
  }
}

/// A bad argument, worded as Lua's own: `bad argument #1 to 'fetch' (expected an integer, found a string)`.
struct LuaArgumentError: Error, CustomStringConvertible {
  var position: Int
  var function: String
  var problem: String

  var description: String { "bad argument #\(position) to '\(function)' (\(problem))" }

  var asLuaError: LuaError {
    var error = LuaError(kind: .runtime, message: description)
    error.addsPosition = true
    return error
  }
}
