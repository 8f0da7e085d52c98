import LuaFeatures

/// What happens to a host's plugins: lifecycle, errors, what they print. ``PluginHost/onEvent``
/// receives each, on the main actor, as it happens.
@MainActor
public enum PluginEvent {
  /// A plugin was loaded and serves.
  case loaded(Plugin)
  /// A plugin was reloaded: its new version serves, with the state it had.
  case reloaded(Plugin)
  /// A plugin was unloaded: its effects were cancelled.
  case unloaded(name: String)
  /// A plugin could not be loaded (`reloading: false`: it is not loaded) or reloaded
  /// (`reloading: true`: its running version keeps serving).
  case failed(PluginError, reloading: Bool)
  /// A running plugin's feature reported an error: a reducer (its state rolled back), an effect,
  /// a view, a migration.
  case error(plugin: String, LuaFeatureError)
  /// A running plugin's feature did something likely a mistake that breaks nothing (an effect
  /// built in a reducer and not returned, which never runs).
  case warning(plugin: String, LuaFeatureWarning)
  /// A plugin's script printed `text` with `print`.
  case printed(plugin: String, text: String)
}
