import Composable
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
    MainActor.assumeIsolated {
      if instance.pendingReload != nil { instance.finishReload(into: &state) }
      return instance.reduce(into: &state, action: action)
    }
  }

  /// The feature it runs.
  @MainActor public var feature: LuaFeature { instance.feature }
}
