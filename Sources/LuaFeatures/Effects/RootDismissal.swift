import Composable
import Dependencies

/// Whether the root feature may dismiss itself: true under a Lua test store, which ends when the
/// feature returns `fx.dismiss()` at its root (`store:isDismissed()`), as a TCA test store does.
/// Elsewhere a root has no one to dismiss it, and `fx.dismiss()` there is an error.
enum LuaRootDismissalKey: DependencyKey {
  static let liveValue = false
  static let testValue = false
}

extension DependencyValues {
  /// Whether `fx.dismiss()` at the root dismisses the feature (a Lua test store) rather than fails.
  var luaRootDismissal: Bool {
    get { self[LuaRootDismissalKey.self] }
    set { self[LuaRootDismissalKey.self] = newValue }
  }
}
