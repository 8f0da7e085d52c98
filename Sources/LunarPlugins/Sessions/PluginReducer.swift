import Composable
import LuaBridge
import LuaFeatures

/// A plugin's feature as a ``Composable/Reducer``: the Lua reducer, counted in the plugin's
/// accounting, refusing every action once the plugin is unloaded, and following its reloads.
///
/// Get one from ``Plugin/reducer()`` to run a plugin's feature inside a Swift feature of your own:
///
/// ```swift
/// Scope(state: \.weather, action: \.weather) { plugin.reducer() }
/// ```
///
/// > Important: Effects a plugin's reducer starts in a store of yours are yours: unloading the
/// > plugin stops its reducer, but cancelling what runs in your store is up to you (remove the
/// > child, or cancel the ``Composable/StoreTask``). ``PluginSession``s are cancelled for you.
public struct PluginReducer: Reducer, Sendable {
  let core: PluginReducerCore

  public func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    let core = self.core
    let meter = core.meter
    if meter.isUnloaded {
      meter.refuse()
      return .none
    }
    // NB: the state "resume from here" puts the session back in is taken instead of reducing.
    if let replacement = core.replacement {
      core.replacement = nil
      state = replacement
      return .none
    }
    guard let observer = core.observer else {
      let start = PluginMeter.now()
      let effect = core.lua.reduce(into: &state, action: action)
      meter.record(PluginMeter.now() &- start)
      return effect
    }
    // NB: a watched session writes each action as JSON (events, recordings): one JSON cannot hold,
    //     sent by the app itself (the input lines, devtools and effects are refused at their gate),
    //     is refused here, before anything sees it. Unwatched, nothing writes it, and it costs nothing.
    if let refused = core.refused, let problem = MainActor.assumeIsolated({ core.lua.feature.unwritable(action) }) {
      meter.refuse()
      refused(problem)
      return .none
    }
    core.willReduce?(action)
    // NB: keeping the state before costs the size of what the action changes: the reducer then
    //     writes into a shared state, copying each array and table on the way to its writes.
    let before = core.keepsStateBefore ? state : nil
    let start = PluginMeter.now()
    let effect = core.lua.reduce(into: &state, action: action)
    meter.record(PluginMeter.now() &- start)
    observer(action, before, state)
    core.didReturn?(effect)
    return effect
  }
}

/// What a ``PluginReducer`` holds: the Lua reducer (which reloads swap), the plugin's meter, and
/// who watches each action (a session's ``PluginSession/onReduce``).
///
/// NB: a class, so that the plugin can find its running reducers (weakly) to swap them on a
///     reload, and a session can set its observer after making its store.
final class PluginReducerCore: @unchecked Sendable {
  // NB: `@unchecked Sendable`: used on the main actor only, like the Lua reducer it wraps.
  let lua: LuaReducer
  /// The plugin's meter.
  let meter: PluginMeter
  /// Called before and after each action, when a session watches (see ``PluginSession/onAction``).
  var willReduce: ((_ action: LuaValue) -> Void)?
  var observer: ((_ action: LuaValue, _ before: LuaState?, _ after: LuaState) -> Void)?
  /// Called with the effect each watched action returned, before it starts.
  var didReturn: ((_ effect: Effect<LuaValue>) -> Void)?
  /// Whether ``observer`` is given the state before the action (see ``PluginSession/keepsStateBefore``).
  var keepsStateBefore = true
  /// The state the next action puts the store in instead of being reduced (``PluginSession/resume(_:)``).
  var replacement: LuaState?
  /// Told why an action sent to a watched session was refused (JSON cannot hold it); without it,
  /// such actions are reduced.
  var refused: ((_ problem: String) -> Void)?

  init(lua: LuaReducer, meter: PluginMeter) {
    self.lua = lua
    self.meter = meter
  }
}
