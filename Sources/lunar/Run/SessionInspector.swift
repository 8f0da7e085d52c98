import Composable
import LuaBridge
import LuaFeatures
import LunarPlugins

/// Sees what a session does, step by step: the devtools page while one is connected.
///
/// `lunar run` holds one only while someone looks (``RunSession/inspector`` is `nil` otherwise),
/// so an unwatched run pays a `nil` check per action and nothing more.
@MainActor
protocol SessionInspector: AnyObject {
  /// An action is about to be reduced; `source` is `input`, `effect` or `devtools`.
  func willReduce(_ action: LuaValue, source: String)
  /// It was: the state after it, and its view when the state changed (`nil` otherwise).
  func didReduce(state: LuaState, view: String?)
  func failed(_ error: LuaFeatureError)
  /// The action just reduced returned `effect`: when it came from input or the page, its effects
  /// are shown with where the first of them was created (`feature.lua:35`).
  func returned(_ effect: Effect<LuaValue>)
  /// The effects of an action sent from input or the page started, or have all ended.
  func effects(of action: LuaValue, _ change: PluginSession.EffectsChange)
  /// The feature was reloaded (or failed to), the state kept.
  func reloaded(files: [String], error: LuaFeatureError?)
  /// The store was put back in an earlier state.
  func resumed(state: LuaState, view: String?)
}
