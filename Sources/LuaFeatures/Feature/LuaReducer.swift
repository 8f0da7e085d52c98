import Composable
import Foundation
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
    onMainActor {
      if instance.pendingReload != nil { instance.finishReload(into: &state) }
      return instance.reduce(into: &state, action: action)
    }
  }

  /// The feature it runs.
  @MainActor public var feature: LuaFeature { instance.feature }
}

/// Runs `body` on the main actor, which the caller must already be on: `MainActor.assumeIsolated`
/// with its check made cheap where it can be.
///
/// `assumeIsolated` asks the concurrency runtime which executor runs: several hundred instructions
/// on Linux, a good part of a whole action's cost. In an executable the main actor runs on the
/// main thread, and only main-actor work does: once `assumeIsolated` has succeeded there, being on
/// the main thread (which LuaBridge's `MainThread` tells without a system call) is the answer.
/// Anywhere else — another thread, a test harness that runs the main actor on a thread of its
/// own — every call goes through `assumeIsolated`, which traps with its own message when wrong.
@inline(__always)
func onMainActor<T: Sendable>(_ body: @MainActor () -> T) -> T {
  guard MainThread.isCurrent else { return MainActor.assumeIsolated(body) }
  guard MainThread.runsMainActor else {
    let result = MainActor.assumeIsolated(body)
    MainThread.runsMainActor = true
    return result
  }
  // NB: a synchronous closure's isolation does not change its representation; this is how
  //     `assumeIsolated` was back-ported before the runtime had it.
  return withoutActuallyEscaping(body) { body in
    unsafeBitCast(body, to: (() -> T).self)()
  }
}
