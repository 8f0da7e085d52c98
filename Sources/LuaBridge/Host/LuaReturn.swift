/// What a Swift function registered with ``LuaVM/function(named:_:)`` gives back to Lua.
///
/// ```swift
/// vm.function(named: "clamp") { args in
///   .value(min(max(try args.integer(1), 0), 10))
/// }
/// vm.function(named: "fetch") { args in
///   .yield(["request": "fetch", "n": .integer(try args.integer(1))] as LuaValue)   // suspends the coroutine
/// }
/// ```
public struct LuaReturn {
  enum Kind { case values, yield }
  let kind: Kind
  let values: [any LuaPushable]

  /// Returns no values.
  public static var none: LuaReturn { LuaReturn(kind: .values, values: []) }

  /// Returns one value.
  public static func value(_ value: some LuaPushable) -> LuaReturn {
    LuaReturn(kind: .values, values: [value])
  }

  /// Returns several values.
  public static func values(_ values: any LuaPushable...) -> LuaReturn {
    LuaReturn(kind: .values, values: values)
  }

  /// Suspends the calling coroutine, yielding `values` to whoever resumed it (a ``LuaThread``
  /// in Swift, or `coroutine.resume` in Lua). When resumed, the values passed to the resume become
  /// this function's results in Lua; ``LuaThread/resume(throwing:)`` raises an error here instead.
  ///
  /// > Important: Only a function called inside a coroutine can yield (check
  /// > ``LuaArguments/canYield``); elsewhere the call fails with
  /// > "attempt to yield from outside a coroutine".
  public static func yield(_ values: any LuaPushable...) -> LuaReturn {
    LuaReturn(kind: .yield, values: values)
  }
}
