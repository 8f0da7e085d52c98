import LuaBridge

/// The state of a Lua feature, as Swift sees it: a ``LuaValue`` snapshot of the feature's state table.
///
/// ```swift
/// let store = Store(initialState: feature.initialState) { feature.reducer() }
/// store.send(["type": "increment"])
/// store.state.count        // .integer(1)
/// store.state.value        // the whole state as a LuaValue
/// ```
///
/// The table itself stays resident in the Lua VM between actions; after each action Swift patches
/// this snapshot with just the fields the reducer wrote, so reading it costs nothing extra and an
/// action's cost does not grow with the size of the state.
///
/// > Important: Two states are equal when their values are: the link to the resident table is an
/// > optimisation, invisible to comparisons and to tests.
@dynamicMemberLookup
public struct LuaState: Equatable, Sendable, Codable, CustomStringConvertible {
  /// The state, as data. Setting it (from Swift) makes the next action push it into Lua afresh.
  public var value: LuaValue {
    get { storage }
    set {
      storage = newValue
      residency = nil
    }
  }

  /// The snapshot itself; patched in place by the reducer.
  var storage: LuaValue
  /// Which resident table this snapshot mirrors, and at which version; `nil` when it mirrors none.
  var residency: Residency?

  struct Residency: Equatable, Sendable {
    let instance: ObjectIdentifier
    let version: UInt64
  }

  /// A state holding `value`.
  public init(_ value: LuaValue) {
    self.storage = value
    self.residency = nil
  }

  /// The field `name` of the state (`.nil` when absent). Setting it changes the state.
  public subscript(dynamicMember name: String) -> LuaValue {
    get { storage[LuaString(name)] }
    set {
      guard case var .table(fields) = storage else {
        value = newValue.isNil ? .table([:]) : .table([LuaString(name): newValue])
        return
      }
      storage = .nil
      // NB: `LuaValue` is ExpressibleByNilLiteral: assigning `nil` would store `.nil`, not remove.
      if newValue.isNil { fields.removeValue(forKey: LuaString(name)) } else { fields[LuaString(name)] = newValue }
      value = .table(fields)
    }
  }

  /// Equal as Lua compares data: an integer equals the float of the same value (`0 == 0.0`), so a
  /// test expecting `0` accepts `deps.now()`'s `0.0`.
  public static func == (lhs: LuaState, rhs: LuaState) -> Bool {
    lhs.storage == rhs.storage || luaEquals(lhs.storage, rhs.storage)
  }

  public init(from decoder: any Decoder) throws {
    self.init(try LuaValue(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try storage.encode(to: encoder)
  }

  public var description: String { storage.description }
}

/// Deep equality with Lua's rule for numbers (integers and floats of equal value are equal).
func luaEquals(_ lhs: LuaValue, _ rhs: LuaValue) -> Bool {
  switch (lhs, rhs) {
  case let (.integer(a), .number(b)), let (.number(b), .integer(a)):
    return Double(exactly: a) == b
  case let (.array(elements), .table(fields)), let (.table(fields), .array(elements)):
    // NB: both are Lua's `{}` when empty.
    return elements.isEmpty && fields.isEmpty
  case let (.array(a), .array(b)):
    return a.count == b.count && zip(a, b).allSatisfy { luaEquals($0, $1) }
  case let (.table(a), .table(b)):
    return a.count == b.count && a.allSatisfy { key, value in b[key].map { luaEquals(value, $0) } ?? false }
  default:
    return lhs == rhs
  }
}
