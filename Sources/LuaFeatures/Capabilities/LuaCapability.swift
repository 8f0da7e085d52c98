import LuaBridge

/// A general-purpose dependency implemented once in Swift and offered to Lua features under one
/// name: `deps.http`, `deps.files`, `deps.storage`. A host chooses which it offers, and with what
/// behind them.
///
/// ```swift
/// var dependencies = LuaDependencies.builtIn
/// dependencies.offer(.http(.fixtures(in: featureFolder.appending(path: "fixtures/http"))))
/// ```
///
/// > Important: A capability replaces every function registered under its name: offer it after
/// > your own clients only if you mean to replace them.
public struct LuaCapability: Sendable {
  /// The name scripts reach it by (`deps.<name>`).
  public let name: String
  /// Its functions, by dotted name (`"http.get"`).
  public let functions: [String: LuaDependencies.Function]

  /// A capability made of `functions`, each named `<name>.<function>`.
  public init(name: String, functions: [String: LuaDependencies.Function]) {
    precondition(functions.keys.allSatisfy { $0.hasPrefix(name + ".") }, "a capability's functions are named '\(name).…'")
    self.name = name
    self.functions = functions
  }
}

extension LuaDependencies {
  /// Offers `capability` to scripts, replacing whatever was offered under its name before.
  public mutating func offer(_ capability: LuaCapability) {
    for name in functions.keys where name.hasPrefix(capability.name + ".") { remove(name) }
    for (name, function) in capability.functions { register(name, function) }
  }

  /// The names of the capabilities offered (the first part of each dotted name).
  public var offered: [String] {
    Array(Set(functions.keys.map { String($0.split(separator: ".").first ?? "") })).sorted()
  }
}
