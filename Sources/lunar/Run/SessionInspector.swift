import LuaBridge
import LuaFeatures

/// Sees what a ``RunSession`` does, step by step: the devtools page while one is connected.
///
/// The session holds one only while someone looks (``RunSession/inspector`` is `nil` otherwise),
/// so an unwatched run pays a `nil` check per action and nothing more.
@MainActor
protocol SessionInspector: AnyObject {
  /// An action is about to be reduced; `source` is `input`, `effect` or `devtools`.
  func willReduce(_ action: LuaValue, source: String)
  /// It was: the state after it, and its view when the state changed (`nil` otherwise).
  func didReduce(state: LuaState, view: String?)
  func failed(_ error: LuaFeatureError)
  /// The action started effects, the first created at `origin` (`feature.lua:35`) when known;
  /// returns a number to report their end with (`nil` when no page looks).
  func effectsStarted(by action: LuaValue, origin: String?) -> Int?
  func effectsEnded(_ id: Int, cancelled: Bool)
  /// The feature was reloaded (or failed to), the state kept.
  func reloaded(files: [String], error: LuaFeatureError?)
  /// The store was put back in an earlier state.
  func resumed(state: LuaState, view: String?)
}
