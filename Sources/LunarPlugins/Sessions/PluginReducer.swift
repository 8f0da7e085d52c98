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
    guard !meter.isUnloaded else {
      meter.refuse()
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
    if let problem = MainActor.assumeIsolated({ core.lua.feature.unwritable(action) }) {
      meter.refuse()
      core.refused?(problem)
      return .none
    }
    core.willReduce?(action)
    let before = state
    let start = PluginMeter.now()
    let effect = core.lua.reduce(into: &state, action: action)
    meter.record(PluginMeter.now() &- start)
    observer(action, before, state)
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
  let meter: PluginMeter
  /// Called before and after each action, when a session watches (see ``PluginSession/onAction``).
  var willReduce: ((_ action: LuaValue) -> Void)?
  var observer: ((_ action: LuaValue, _ before: LuaState, _ after: LuaState) -> Void)?
  /// Told why an action sent to a watched session was refused (JSON cannot hold it).
  var refused: ((_ problem: String) -> Void)?

  init(lua: LuaReducer, meter: PluginMeter) {
    self.lua = lua
    self.meter = meter
  }
}
