import LuaBridge

/// The state of a Lua feature, as Swift sees it: a ``LuaValue`` of the feature's state table.
///
/// ```swift
/// let store = Store(initialState: feature.initialState) { feature.reducer() }
/// store.send(["type": "increment"])
/// store.state.count        // .integer(1)
/// store.state.value        // the whole state as a LuaValue
/// ```
///
/// The table itself stays resident in the Lua VM between actions. Swift keeps no second copy of
/// it until someone needs one: while nothing reads the state or keeps an older one, the state is
/// a *view* of the resident table, and an action costs no Swift work for the fields it wrote. The
/// first read makes the copy; from then on (and whenever a state is kept across an action, as a
/// test or an observer keeps the state before), each action patches that copy with just the fields
/// the reducer wrote, so an action's cost does not grow with the size of the state.
///
/// > Important: Two states are equal when their values are: views and copies are an optimisation,
/// > invisible to comparisons, to tests and to code holding an older state (which keeps its value).
///
/// > Note: Reading a state that is still a view reads the table in the VM, on the main actor; read
/// > from another thread, it waits for the main actor.
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

  /// The snapshot's data, when the state is not a view.
  var box: StateBox
  /// The resident table this state reads on demand, while it is a view; `nil` for data.
  var view: ResidentView?
  /// Which resident table this state mirrors, and at which version; `nil` when it mirrors none.
  var residency: Residency?
  /// The Lua instance of this state's store, when a ``LuaScriptReducer`` runs it (made at its first
  /// action); not part of the state's value.
  var owner: LuaScriptInstance?

  struct Residency: Equatable, Sendable {
    let replica: ObjectIdentifier
    let version: UInt64
  }

  /// A state holding `value`.
  public init(_ value: LuaValue) {
    self.box = StateBox(value)
    self.view = nil
    self.residency = nil
    self.owner = nil
  }

  /// The state's value: the data, or the view's read (made once). Changing it makes the state
  /// data, copied first when another state shares it.
  var storage: LuaValue {
    get { view?.value ?? box.data }
    set {
      box = StateBox(newValue)
      view = nil
    }
    _modify {
      if let view {
        box = StateBox(view.value)
        self.view = nil
      } else if !isKnownUniquelyReferenced(&box) {
        box = StateBox(box.data)
      }
      yield &box.data
    }
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
    if let view = lhs.view, view === rhs.view { return true }
    let left = lhs.storage, right = rhs.storage
    return left == right || luaEquals(left, right)
  }

  public init(from decoder: any Decoder) throws {
    self.init(try LuaValue(from: decoder))
  }

  public func encode(to encoder: any Encoder) throws {
    try storage.encode(to: encoder)
  }

  public var description: String { storage.description }
}

/// A state's data, shared by copies of the state until one of them changes it.
final class StateBox: @unchecked Sendable {
  // NB: changed only through `LuaState.storage`'s `_modify`, on a box no other state holds.
  var data: LuaValue

  init(_ data: LuaValue) {
    self.data = data
  }

  /// The box of every view (whose value is the resident table's, not a box's).
  static let empty = StateBox(.nil)
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
