import Composable
import LuaBridge
import LuaFeatures

/// Wraps a feature's reducer so the host sees every action (from input or from effects) and the
/// state around it.
struct ObservingReducer<Base: Reducer<LuaState, LuaValue>>: Reducer {
  let base: Base
  /// Called before the base reducer runs, so the action shows before any error it causes. A state
  /// it returns replaces the store's instead, and the base reducer does not run (the devtools'
  /// "resume from here").
  let willReduce: @MainActor @Sendable (_ action: LuaValue) -> LuaState?
  /// Called after the base reducer ran, with the state before (when ``keepsBefore``) and after.
  let didReduce: @MainActor @Sendable (_ action: LuaValue, _ before: LuaState?, _ after: LuaState) -> Void
  /// Whether `didReduce` needs the state before the action.
  ///
  /// > Important: Keeping it costs the size of what the action changes: the reducer then writes
  /// > into a state that is shared, and copies each array and table on the way to its writes (a
  /// > whole list of 100,000 rows to toggle one). Keep it only to show a diff.
  var keepsBefore = true
  /// Called with the effect the base reducer returned, before it starts (the devtools read where
  /// it was created).
  var didReturn: (@MainActor @Sendable (_ effect: Effect<LuaValue>) -> Void)?

  func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    let willReduce = self.willReduce
    let didReduce = self.didReduce
    if let replacement = MainActor.assumeIsolated({ willReduce(action) }) {
      state = replacement
      return .none
    }
    let before = keepsBefore ? state : nil
    let effect = base.reduce(into: &state, action: action)
    let after = state
    MainActor.assumeIsolated { didReduce(action, before, after) }
    if let didReturn { MainActor.assumeIsolated { didReturn(effect) } }
    return effect
  }
}
