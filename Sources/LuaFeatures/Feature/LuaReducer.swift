import Composable
import Foundation
import LuaBridge

/// A Lua feature as a ``Composable/Reducer`` of the core: state ``LuaState``, actions ``LuaValue``
/// tables with a `type`.
///
/// ```swift
/// let store = Store(initialState: feature.initialState) { feature.reducer() }
/// store.send(["type": "increment"])
/// ```
///
/// It composes like any reducer: a Swift parent can `Scope` into a Lua child whose state it holds as
/// a ``LuaState`` (or as a `Codable` type, converted with ``LuaEncoder``/``LuaDecoder``).
///
/// Actions are checked as every entry checks them: when the feature declares its actions
/// (`actions = { … }`), an action that is none of them (an unknown type, a missing, extra or
/// mistyped field) is refused with the same message as at the prompt — `unknown action "incremnt"
/// (did you mean "increment"?)` — reported through ``LuaFeatureHost/onError`` (an issue failing
/// the test at its `send` line, by default), and not reduced: state stays as it was and no effect
/// runs.
///
/// > Important: Run it on the main actor — inside a ``Composable/Store`` or a `TestStore`, which are.
public struct LuaReducer: Reducer, Sendable {
  let instance: LuaFeatureInstance
  let gate = LuaActionGate()

  init(instance: LuaFeatureInstance) {
    self.instance = instance
  }

  public func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    guard MainThread.isCurrent, MainThread.runsMainActor else {
      return MainActor.assumeIsolated {
        MainThread.runsMainActor = MainThread.runsMainActor || MainThread.isCurrent
        return Self.reduce(self, &state, action)
      }
    }
    // The main thread, where the main actor was seen to run (see `MainThread`): on the main
    // actor. Calling the isolated function through its nonisolated type skips the executor check
    // `MainActor.assumeIsolated` would make on every action, and a global function's reference
    // carries no context, so nothing is allocated, unlike a closure passed to `assumeIsolated`.
    let isolated: @MainActor (LuaReducer, inout LuaState, LuaValue) -> Effect<LuaValue> = Self.reduce
    let entry = unsafeBitCast(isolated, to: ((LuaReducer, inout LuaState, LuaValue) -> Effect<LuaValue>).self)
    return entry(self, &state, action)
  }

  @MainActor
  private static func reduce(_ reducer: LuaReducer, _ state: inout LuaState, _ action: LuaValue) -> Effect<LuaValue> {
    let instance = reducer.instance
    if instance.pendingReload != nil { instance.finishReload(into: &state) }
    if let refusal = reducer.gate.refusal(of: action, by: instance.feature) {
      instance.host.report(LuaFeatureError(kind: .reducer, feature: instance.feature.name, message: refusal, action: action))
      return .none
    }
    return instance.reduce(into: &state, action: action)
  }

  /// The feature it runs.
  @MainActor public var feature: LuaFeature { instance.feature }

  /// The view of the feature it runs now (the new version after a reload) of `state`, or `nil`
  /// without a `view`.
  ///
  /// ```swift
  /// store.send(["type": "increment"])
  /// try reducer.render(store.state)               // "[ - ]  1  [ + ]"
  /// ```
  ///
  /// When `state` is its store's state as the last action left it, the view is given a copy of
  /// the table resident in the VM, made there: nothing is pushed from Swift, and what the view
  /// writes into its copy is not seen by the store. Any other state is pushed whole, as
  /// ``LuaFeature/render(_:)`` does.
  ///
  /// - Throws: ``LuaFeatureError`` when `view` fails or returns something other than a string.
  @MainActor public func render(_ state: LuaState) throws(LuaFeatureError) -> String? {
    try instance.render(state)
  }
}
