import Composable
import LuaBridge

/// A Lua feature as a reducer of Swift types of your choosing: `Codable` state and actions.
///
/// ```swift
/// struct Counter: Codable, Equatable, Sendable { var count = 0 }
/// enum CounterAction: Codable, Sendable { case increment, add(amount: Int) }
///
/// let store = Store(initialState: Counter()) { feature.typedReducer(of: Counter.self, CounterAction.self) }
/// store.send(.add(amount: 2))
/// store.state.count          // 2, an Int
/// ```
///
/// **State** converts field by field (``LuaEncoder``/``LuaDecoder``): a Swift property is the Lua
/// field of the same name.
///
/// **Actions** are the enum's cases: a case is an action of that `type`, its labeled associated
/// values its fields, and an action held in a field named `action` (a delegate's, a child's) is
/// converted the same way, at any depth:
///
/// | Swift | Lua |
/// | --- | --- |
/// | `.increment` | `{ type = "increment" }` |
/// | `.add(amount: 2)` | `{ type = "add", amount = 2 }` |
/// | `.delegate(action: .saved(id: 3))` | `{ type = "delegate", action = { type = "saved", id = 3 } }` |
///
/// An action the feature's effects send arrives as a case of `Action`. One that does not convert,
/// and a state the reducer leaves that does not read as `State`, are errors of the feature
/// (``LuaFeatureHost/onError``) naming the Lua field and the Swift type: the action is dropped,
/// the state left as it was. Actions sent from Swift pass the feature's declared actions like any
/// (see ``LuaReducer``).
///
/// A store over it is observed as any store of a Swift state: `store.count` tracks `count` alone,
/// and an action tells its observers when the `Int` it holds changed (see ``Composable/Store``).
///
/// > Note: Each action pushes the whole state into Lua and reads it back: for large states, the
/// > untyped ``LuaReducer`` (state ``LuaState``) keeps the state resident instead.
public struct TypedLuaReducer<State: Codable & Sendable, Action: Codable & Sendable>: Reducer, Sendable {
  let lua: LuaReducer

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    MainActor.assumeIsolated { Self.reduce(lua, &state, action) }
  }

  @MainActor
  private static func reduce(_ lua: LuaReducer, _ state: inout State, _ action: Action) -> Effect<Action> {
    let instance = lua.instance
    let name = instance.feature.name
    let host = instance.host
    var luaState: LuaState
    let luaAction: LuaValue
    do {
      luaState = LuaState(try LuaEncoder().encode(state))
      luaAction = try LuaActionCoding.lua(from: try LuaEncoder().encode(action))
    } catch {
      host.report(LuaFeatureError(
        kind: .reducer, feature: name, message: "cannot convert to Lua: \(error)"))
      return .none
    }
    let effect = lua.reduce(into: &luaState, action: luaAction)
    do {
      state = try LuaDecoder().decode(State.self, from: luaState.value)
    } catch {
      host.report(LuaFeatureError(
        kind: .reducer, feature: name, message: "the state does not read as \(State.self): \(error)",
        action: luaAction))
    }
    return effect.compactMap { sent in
      MainActor.assumeIsolated { decodeAction(sent, feature: name, host: host) }
    }
  }

  @MainActor
  private static func decodeAction(_ value: LuaValue, feature: String, host: LuaFeatureHost) -> Action? {
    do {
      return try LuaDecoder().decode(Action.self, from: try LuaActionCoding.swift(from: value))
    } catch {
      host.report(LuaFeatureError(
        kind: .effect, feature: feature, message: "the action \(value) does not read as \(Action.self): \(error)",
        action: value))
      return nil
    }
  }
}

extension LuaFeature {
  /// The feature as a reducer of `State` and `Action`, your `Codable` types (see
  /// ``TypedLuaReducer`` for how they convert). A new instance each call, as ``reducer(dependencyOverrides:testing:realClients:)``.
  ///
  /// ```swift
  /// Scope(state: \.editor, action: \.editor) { editor.typedReducer(of: Editor.self, EditorAction.self) }
  /// ```
  public func typedReducer<State: Codable & Sendable, Action: Codable & Sendable>(
    of state: State.Type, _ action: Action.Type, dependencyOverrides: LuaTable? = nil
  ) -> TypedLuaReducer<State, Action> {
    TypedLuaReducer(lua: reducer(dependencyOverrides: dependencyOverrides))
  }

  /// The feature's initial state as `State`.
  ///
  /// - Throws: ``LuaConversionError`` naming the Lua field that does not read as `State`'s.
  public func initialState<State: Decodable>(as type: State.Type) throws(LuaConversionError) -> State {
    try LuaDecoder().decode(State.self, from: initialState.value)
  }
}

/// The two forms of an action: Swift's `Codable` form of an enum case (`{ add = { amount = 2 } }`)
/// and Lunar's (`{ type = "add", amount = 2 }`), with actions nested in a field `action`
/// converted alike.
enum LuaActionCoding {
  static let typeKey = LuaString("type")
  static let actionKey = LuaString("action")

  /// Lunar's form of an action in Swift's.
  static func lua(from swift: LuaValue) throws(LuaConversionError) -> LuaValue {
    guard case let .table(outer) = swift, outer.count == 1, let (name, payload) = outer.first else {
      throw LuaConversionError(path: LuaPath(root: "action"), problem: .other("an action is an enum case, got \(swift)"))
    }
    var fields: [LuaString: LuaValue] = [:]
    switch payload {
    case let .table(values): fields = values
    case .array([]), .nil: break
    default: throw LuaConversionError(path: LuaPath(root: "action"), problem: .other("case \(name) has unlabeled values: label them"))
    }
    if let nested = fields[actionKey] { fields[actionKey] = try lua(from: nested) }
    fields[typeKey] = .string(name)
    return .table(fields)
  }

  /// Swift's form of an action in Lunar's.
  static func swift(from lua: LuaValue) throws(LuaConversionError) -> LuaValue {
    guard case var .table(fields) = lua, case let .string(name)? = fields[typeKey] else {
      throw LuaConversionError(path: LuaPath(root: "action"), problem: .typeMismatch(expected: "an action { type = … }", found: "\(lua)"))
    }
    fields[typeKey] = nil
    if let nested = fields[actionKey], case .table = nested { fields[actionKey] = try swift(from: nested) }
    return .table([name: .table(fields)])
  }
}
