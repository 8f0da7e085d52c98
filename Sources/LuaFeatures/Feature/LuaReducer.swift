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
/// > Important: Run it on the main actor — inside a ``Composable/Store`` or a `TestStore`, which are.
public struct LuaReducer: Reducer, Sendable {
  let instance: LuaFeatureInstance

  public func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    guard MainThread.isCurrent, MainThread.runsMainActor else {
      return MainActor.assumeIsolated {
        MainThread.runsMainActor = MainThread.runsMainActor || MainThread.isCurrent
        return Self.reduce(instance, &state, action)
      }
    }
    // The main thread, where the main actor was seen to run (see `MainThread`): on the main
    // actor. Calling the isolated function through its nonisolated type skips the executor check
    // `MainActor.assumeIsolated` would make on every action, and a global function's reference
    // carries no context, so nothing is allocated, unlike a closure passed to `assumeIsolated`:
    // together about a tenth of a counter's `increment` (callgrind).
    let isolated: @MainActor (LuaFeatureInstance, inout LuaState, LuaValue) -> Effect<LuaValue> = Self.reduce
    let entry = unsafeBitCast(isolated, to: ((LuaFeatureInstance, inout LuaState, LuaValue) -> Effect<LuaValue>).self)
    return entry(instance, &state, action)
  }

  @MainActor
  private static func reduce(_ instance: LuaFeatureInstance, _ state: inout LuaState, _ action: LuaValue) -> Effect<LuaValue> {
    if instance.pendingReload != nil { instance.finishReload(into: &state) }
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
