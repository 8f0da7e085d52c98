/// Anything that went wrong in Lua or at its boundary: a typed kind, the message as Lua wrote it,
/// the position and the traceback.
///
/// ```swift
/// do {
///   try vm.call(reducer, state, action)
/// } catch let error as LuaError {
///   error.kind        // .runtime
///   error.message     // "counter.lua:12: attempt to index a nil value (local 'user')"
///   error.file        // "counter.lua"
///   error.line        // 12
///   print(error)      // the headline, then the traceback indented
/// }
/// ```
///
/// Non-string error objects become readable messages: `error({code = 1})` reads
/// `error object is a table: {code = 1}` with ``value`` holding the table; `error(nil)` reads
/// `error object is nil`; objects with `__tostring` use it.
public struct LuaError: Error, Sendable, CustomStringConvertible {
  /// Why a call failed.
  public enum Kind: String, Sendable, Hashable {
    /// An error raised by Lua code (`error(...)`, a bad index, a failing host function).
    case runtime
    /// The chunk did not compile.
    case syntax
    /// The VM's memory ceiling was reached (or the system refused memory).
    case memory
    /// The call ran out of its instruction budget.
    case instructionLimit
    /// The call ran past its wall-clock limit (``LuaVM/Limits/timePerCall``).
    case timeLimit
    /// Lua's stack or the C-call depth (LUAI_MAXCCALLS, nested pcall/metamethods) overflowed.
    case stackOverflow
    /// The message handler itself failed (Lua's `LUA_ERRERR`).
    case errorHandler
    /// A value could not be converted; ``LuaError/conversion`` says where.
    case conversion
    /// The API was used in a way that cannot work (resuming a finished thread, a reference of
    /// another VM, yielding outside a coroutine).
    case misuse
  }

  /// Why it failed.
  public var kind: Kind
  /// The message, with Lua's `file:line:` prefix when Lua added one.
  public var message: String
  /// The error object, when it is data (`error({code = 1})` gives the table).
  public var value: LuaValue?
  /// Lua's traceback at the point of the error, when known.
  public var traceback: String?
  /// The chunk name of the failing line, e.g. `counter.lua`.
  public var file: String?
  /// The failing line.
  public var line: Int?
  /// The underlying conversion error, for kind ``Kind/conversion``.
  public var conversion: LuaConversionError?
  /// When raised into Lua from a host function: prefix the caller's `file:line:`.
  var addsPosition = false

  /// An error; `file` and `line` default to what the message's `file:line:` prefix says.
  public init(
    kind: Kind, message: String, value: LuaValue? = nil, traceback: String? = nil,
    file: String? = nil, line: Int? = nil
  ) {
    self.kind = kind
    self.message = message
    self.value = value
    self.traceback = traceback
    let position = LuaError.position(in: message)
    self.file = file ?? position?.file
    self.line = line ?? position?.line
  }

  /// A conversion failure as a `LuaError`.
  public init(_ conversion: LuaConversionError) {
    self.init(kind: .conversion, message: conversion.description)
    self.conversion = conversion
  }

  /// The headline (`runtime error: counter.lua:12: boom`) and the traceback, indented.
  public var description: String {
    var out = "\(kind.headline): \(message)"
    if let traceback, !traceback.isEmpty {
      out += "\n" + traceback.split(separator: "\n", omittingEmptySubsequences: false)
        .map { "  " + $0.replacingTabs() }.joined(separator: "\n")
    }
    return out
  }

  /// `file` and `line` from a `file:line:` prefix (the first `:digits:` in the message).
  static func position(in message: String) -> (file: String, line: Int)? {
    let chars = Array(message.utf8)
    var i = 0
    while i < chars.count {
      if chars[i] == UInt8(ascii: ":") {
        var j = i + 1
        while j < chars.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(chars[j]) { j += 1 }
        if j > i + 1, j < chars.count, chars[j] == UInt8(ascii: ":"), i > 0 {
          let file = String(decoding: chars[..<i], as: UTF8.self)
          let line = Int(String(decoding: chars[(i + 1)..<j], as: UTF8.self))!
          return (file, line)
        }
      }
      if chars[i] == UInt8(ascii: "\n") { return nil }
      i += 1
    }
    return nil
  }
}

extension LuaError.Kind {
  var headline: String {
    switch self {
    case .runtime: "runtime error"
    case .syntax: "syntax error"
    case .memory: "memory limit"
    case .instructionLimit: "instruction limit"
    case .timeLimit: "time limit"
    case .stackOverflow: "stack overflow"
    case .errorHandler: "error in error handling"
    case .conversion: "conversion error"
    case .misuse: "misuse of LuaBridge"
    }
  }
}

extension Substring {
  fileprivate func replacingTabs() -> String {
    String(self).split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "  ")
  }
}
