import Composable
import LuaBridge
import LuaFeatures

/// Wraps a feature's reducer so the host sees every action (from input or from effects) and the
/// state around it.
struct ObservingReducer<Base: Reducer<LuaState, LuaValue>>: Reducer {
  let base: Base
  let observe: @MainActor @Sendable (_ action: LuaValue, _ before: LuaState, _ after: LuaState) -> Void

  func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    let before = state
    let effect = base.reduce(into: &state, action: action)
    let after = state
    let observe = self.observe
    MainActor.assumeIsolated { observe(action, before, after) }
    return effect
  }
}
