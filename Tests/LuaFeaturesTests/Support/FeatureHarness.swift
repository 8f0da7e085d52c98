import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures

/// A host whose errors are collected instead of reported, and helpers to load features from text.
@MainActor
final class FeatureHarness {
  let host: LuaFeatureHost
  private(set) var errors: [LuaFeatureError] = []

  /// A host with `limits`; by default those of a host, without the time limit (how far a call gets
  /// in a second depends on the machine's load: the tests of the time limit set their own).
  init(limits: LuaVM.Limits = .init(timePerCall: nil), dependencies: LuaDependencies = .builtIn) throws {
    host = try LuaFeatureHost(limits: limits, dependencies: dependencies)
    host.onError = { [weak self] error in self?.errors.append(error) }
  }

  /// Loads a feature from `source`; errors name it `chunkName`.
  func load(_ source: String, chunkName: String = "feature.lua") throws -> LuaFeature {
    try host.load(source: source, chunkName: chunkName)
  }

  /// Returns the errors collected so far and forgets them.
  func takeErrors() -> [LuaFeatureError] {
    defer { errors = [] }
    return errors
  }
}

extension LuaReducer {
  /// A full read of the resident state table of this reducer's instance (what the snapshot must
  /// equal), or `nil` before the first action.
  @MainActor func residentState() throws -> LuaValue? {
    try instance.replica.residentValue()
  }

  /// How many effect coroutines of this instance are alive.
  @MainActor var liveCoroutines: Int { instance.threads.count }
}

/// A store that reduces synchronously, for tests that do not need `TestStore`'s assertions.
@MainActor
func makeStore(_ reducer: LuaReducer, state: LuaState) -> Store<LuaState, LuaValue> {
  Store(initialState: state) { reducer }
}
