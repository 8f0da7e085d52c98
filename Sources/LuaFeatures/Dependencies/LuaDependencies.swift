import Dependencies
import Foundation
import LuaBridge

/// The Swift clients a Lua feature reaches through `deps`.
///
/// Each entry is a dotted name (`"numberFact.fetch"` is `deps.numberFact.fetch` in Lua) and a
/// function, synchronous or asynchronous, taking and returning `Codable` values:
///
/// ```swift
/// var dependencies = LuaDependencies.builtIn
/// dependencies.async("numberFact.fetch") { (n: Int) async throws -> String in
///   @Dependency(\.numberFact) var numberFact
///   return try await numberFact.fetch(n)
/// }
/// ```
///
/// Synchronous functions can be called anywhere, the reducer included. Asynchronous ones only inside
/// `fx.run`: the effect's coroutine yields to Swift, which awaits the call and resumes the coroutine
/// with the result, or raises the error there (where `pcall` can catch it).
///
/// > Important: Read `@Dependency` values *inside* the function, as above, not when registering: then
/// > the store's overrides (and a test's `TestClock`) apply.
public struct LuaDependencies: Sendable {
  /// One registered function.
  public enum Function: Sendable {
    /// Called directly from Lua; may be called in a reducer.
    case sync(@Sendable (_ arguments: [LuaValue]) throws -> LuaValue)
    /// Awaited by the host while the calling effect's coroutine waits.
    case async(@Sendable (_ arguments: [LuaValue]) async throws -> LuaValue)
  }

  /// The functions, by dotted name.
  public private(set) var functions: [String: Function] = [:]

  /// No dependencies at all.
  public init() {}

  /// The names registered, sorted: what `lunar list` and `:deps` show.
  public var names: [String] { functions.keys.sorted() }

  /// Registers (or replaces) a function that works on ``LuaValue``s directly.
  public mutating func register(_ name: String, _ function: Function) {
    precondition(Self.isValidName(name), "'\(name)' is not a valid dependency name (use names like 'numberFact.fetch')")
    functions[name] = function
  }

  /// Removes a function.
  public mutating func remove(_ name: String) {
    functions[name] = nil
  }

  static func isValidName(_ name: String) -> Bool {
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return !parts.isEmpty && parts.allSatisfy { part in
      guard let first = part.first, first.isLetter || first == "_" else { return false }
      return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
  }
}

extension LuaDependencies {
  /// Registers a synchronous function of no argument.
  public mutating func sync<Result: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable () throws -> Result
  ) {
    register(name, .sync { arguments in
      try Self.checkCount(arguments, 0, name)
      return try Self.encode(try body(), name)
    })
  }

  /// Registers a synchronous function of one argument.
  public mutating func sync<A: Decodable & Sendable, Result: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable (A) throws -> Result
  ) {
    register(name, .sync { arguments in
      try Self.checkCount(arguments, 1, name)
      return try Self.encode(try body(Self.decode(A.self, arguments, 0, name)), name)
    })
  }

  /// Registers a synchronous function of two arguments.
  public mutating func sync<A: Decodable & Sendable, B: Decodable & Sendable, Result: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable (A, B) throws -> Result
  ) {
    register(name, .sync { arguments in
      try Self.checkCount(arguments, 2, name)
      return try Self.encode(
        try body(Self.decode(A.self, arguments, 0, name), Self.decode(B.self, arguments, 1, name)), name)
    })
  }

  /// Registers an asynchronous function of no argument.
  public mutating func async<Result: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable () async throws -> Result
  ) {
    register(name, .async { arguments in
      try Self.checkCount(arguments, 0, name)
      return try Self.encode(try await body(), name)
    })
  }

  /// Registers an asynchronous function of one argument.
  public mutating func async<A: Decodable & Sendable, Result: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable (A) async throws -> Result
  ) {
    register(name, .async { arguments in
      try Self.checkCount(arguments, 1, name)
      return try Self.encode(try await body(Self.decode(A.self, arguments, 0, name)), name)
    })
  }

  /// Registers an asynchronous function of two arguments.
  public mutating func async<A: Decodable & Sendable, B: Decodable & Sendable, Result: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable (A, B) async throws -> Result
  ) {
    register(name, .async { arguments in
      try Self.checkCount(arguments, 2, name)
      return try Self.encode(
        try await body(Self.decode(A.self, arguments, 0, name), Self.decode(B.self, arguments, 1, name)), name)
    })
  }

  static func checkCount(_ arguments: [LuaValue], _ expected: Int, _ name: String) throws {
    // NB: Lua drops trailing nils, so fewer arguments than expected may be optionals left out.
    guard arguments.count <= expected else {
      throw LuaDependencyError(
        name: name, message: "takes \(expected) argument\(expected == 1 ? "" : "s"), got \(arguments.count)")
    }
  }

  static func decode<T: Decodable>(_ type: T.Type, _ arguments: [LuaValue], _ index: Int, _ name: String) throws -> T {
    let value = index < arguments.count ? arguments[index] : .nil
    do {
      return try LuaDecoder().decode(T.self, from: value)
    } catch {
      throw LuaDependencyError(name: name, message: "bad argument #\(index + 1): \(error)")
    }
  }

  static func encode<T: Encodable>(_ value: T, _ name: String) throws -> LuaValue {
    do {
      return try LuaEncoder().encode(value)
    } catch {
      throw LuaDependencyError(name: name, message: "cannot return its result to Lua: \(error)")
    }
  }
}

/// A dependency called wrongly from Lua: raised in Lua as `deps.name: message`.
public struct LuaDependencyError: Error, Sendable, CustomStringConvertible {
  /// The dotted name of the dependency.
  public var name: String
  /// What was wrong.
  public var message: String

  public var description: String { "deps.\(name) \(message)" }
}

/// An empty result for dependencies that return nothing.
public struct LuaNothing: Codable, Sendable, Equatable {
  public init() {}
  public init(from decoder: any Decoder) throws {}
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encodeNil()
  }
}
