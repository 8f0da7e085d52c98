import CLua
import CLuaShim

extension LuaVM {
  /// Turns a failed status and the error object on top of `L` into a ``LuaError``, popping the
  /// object. Reads only, so it cannot raise.
  ///
  /// - Parameters:
  ///   - traceback: the traceback to attach; `nil` takes the one the message handler recorded.
  ///   - usesHandler: whether the failure went through `lunar_msgh` (calls do, pushes do not).
  func takeError(
    status: Int32, from L: OpaquePointer, hasObject: Bool = true, traceback: String? = nil, usesHandler: Bool = false
  ) -> LuaError {
    var recordedTraceback: String?
    var errorText: String?
    if usesHandler {
      recordedTraceback = takeRegistryString(lunar_take_traceback)
      errorText = takeRegistryString(lunar_take_errortext)
    }
    guard hasObject else {
      return LuaError(kind: .memory, message: "not enough memory (the Lua stack could not grow)")
    }
    defer { lunar_pop(L, 1) }

    let (message, value) = describeErrorObject(on: L, text: errorText)
    var kind: LuaError.Kind
    switch status {
    case Int32(LUNAR_ERRBUDGET): kind = .instructionLimit
    case Int32(LUNAR_ERRTIME): kind = .timeLimit
    case LUA_ERRMEM: kind = .memory
    case LUA_ERRSYNTAX: kind = .syntax
    case LUA_ERRERR: kind = .errorHandler
    default: kind = .runtime
    }
    if kind == .runtime || kind == .errorHandler {
      if lunar_is_memory_error(L, -1) != 0 {
        kind = .memory
      } else if message.hasSuffix("stack overflow") || message.contains("stack overflow (") {
        kind = .stackOverflow
      }
    }
    var error = LuaError(kind: kind, message: message, value: value, traceback: traceback ?? recordedTraceback.map(Self.trimmed))
    if error.file == nil, usesHandler || traceback != nil, host.pointee.error_line > 0 {
      error.file = withUnsafeBytes(of: host.pointee.error_source) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      error.line = Int(host.pointee.error_line)
    }
    return error
  }

  /// The message for the error object on top of `L`: strings as they are, other objects
  /// described (`error object is a table: {code = 1}`), with their data when convertible.
  private func describeErrorObject(on L: OpaquePointer, text: String?) -> (String, LuaValue?) {
    let type = lua_type(L, -1)
    if type == LUA_TSTRING {
      let s = StackReader.string(L, at: -1)
      return (s.lossyString, .string(s))
    }
    if type == LUA_TNIL { return ("error object is nil", .nil) }
    let typeName = StackReader.typeName(L, type)
    var reader = StackReader(state: L, depthLimit: Int(host.pointee.data_depth))
    let top = lua_gettop(L)
    let value = try? reader.read(at: top)
    lua_settop(L, top)
    if let text { return (text, value) }
    if let value { return ("error object is a \(typeName): \(value)", value) }
    return ("error object is a \(typeName) value", nil)
  }

  private func takeRegistryString(_ take: (OpaquePointer?) -> Void) -> String? {
    let L = state
    guard lua_checkstack(L, 2) != 0 else { return nil }
    take(L)
    defer { lunar_pop(L, 1) }
    guard lua_type(L, -1) == LUA_TSTRING else { return nil }
    return StackReader.string(L, at: -1).lossyString
  }

  /// Drops the frames of LuaBridge's own C helpers from a traceback.
  static func trimmed(_ traceback: String) -> String {
    var lines = traceback.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while let last = lines.last, last.trimmingPrefix("\t") == "[C]: in ?" { lines.removeLast() }
    return lines.joined(separator: "\n")
  }
}
