/// A Lua function held by reference (a Lua closure or a Swift function registered with
/// ``LuaVM/function(named:_:)``).
///
/// ```swift
/// let reduce = try feature.get("reduce", as: LuaFunction.self)
/// try reduce.call(state, action)
/// ```
public struct LuaFunction: LuaPushable, LuaReadable {
  /// The underlying reference.
  public let reference: LuaRef

  init(_ reference: LuaRef) {
    self.reference = reference
  }

  /// The VM the function belongs to.
  public var vm: LuaVM { reference.vm }

  /// Calls the function; see ``LuaVM/call(_:_:)``.
  @discardableResult
  public func call<each Argument: LuaPushable>(_ arguments: repeat each Argument) throws(LuaError) -> [LuaValue] {
    try vm.call(self, repeat each arguments)
  }

  /// Calls the function and reads its first result as `R`; see ``LuaVM/call(_:_:returning:)``.
  public func call<each Argument: LuaPushable, R: LuaReadable>(
    _ arguments: repeat each Argument, returning: R.Type
  ) throws(LuaError) -> R {
    try vm.call(self, repeat each arguments, returning: returning)
  }

  public func write(to writer: inout LuaWriter) throws(LuaConversionError) {
    try writer.write(reference)
  }

  public static func read(from slot: LuaSlot) throws(LuaError) -> LuaFunction {
    guard slot.type == .function else { throw slot.mismatch(expected: "a function") }
    return LuaFunction(try slot.reference())
  }
}
