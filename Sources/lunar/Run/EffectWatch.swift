import Composable
import LuaBridge

/// How the effects of one input action went, for the devtools page: where they were created, and
/// whether one of them was cancelled (by `fx.cancel`, by a new `cancelInFlight` run, or by a feature
/// cancelling its child's effects), which the session alone cannot tell from a finished task.
///
/// Made only while a page is connected: an unwatched run returns its effects untouched.
@MainActor
final class EffectWatch {
  /// Where the first of the effects was created, as the feature's author wrote it
  /// (`feature.lua:35`); `nil` for an effect not described in Lua.
  let origin: String?
  /// Whether one of the effects ended cancelled.
  private(set) var cancelled = false

  init(origin: String?) {
    self.origin = origin
  }

  /// An effect built by a Lua feature: its runs, where its description was made.
  convenience init(watching effect: Effect<LuaValue>) {
    self.init(origin: effect.firstOrigin?.label)
  }

  /// `effect`, each of its runs noting here whether it ended cancelled.
  func wrap(_ effect: Effect<LuaValue>) -> Effect<LuaValue> {
    effect.transformRuns { [self] operation in
      { send in
        await operation(send)
        // NB: noted before the run ends, so before the session sees the action's effects finish.
        if Task.isCancelled { await self.noteCancelled() }
      }
    }
  }

  private func noteCancelled() {
    cancelled = true
  }
}
