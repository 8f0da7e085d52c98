import LuaBridge

/// A Lua VM is Lunar's feature engine: each requirement is the host's or the feature's own method,
/// named for what a host does with it.
extension LuaFeatureHost: FeatureEngine {
  /// The state a store of `feature` starts from: ``LuaFeature/initialState``.
  public func initialState(of feature: LuaFeature) -> LuaState {
    feature.initialState
  }

  /// A new reducer running `feature`: ``LuaFeature/reducer(dependencyOverrides:testing:realClients:)``
  /// with the host's dependencies.
  public func reducer(for feature: LuaFeature) -> LuaReducer {
    feature.reducer()
  }

  /// The `view(state)` of the feature `reducer` runs: ``LuaReducer/render(_:)``.
  public func render(_ state: LuaState, with reducer: LuaReducer) throws(LuaFeatureError) -> String? {
    try reducer.render(state)
  }

  /// Swaps `reducer` to `feature`, running its `migrate(state)`: ``LuaReducer/swap(to:)``.
  public func migrate(_ reducer: LuaReducer, to feature: LuaFeature) throws(LuaFeatureError) {
    try reducer.swap(to: feature)
  }

  /// The action gate: ``LuaFeature/problem(with:)``.
  public func problem(with action: LuaValue, for feature: LuaFeature) -> String? {
    feature.problem(with: action)
  }

  /// The VM's memory in use, and its ceiling.
  public var usage: FeatureEngineUsage {
    FeatureEngineUsage(memoryInUse: vm.memoryInUse, memoryLimit: vm.limits.memoryBytes)
  }

  /// The VM's limits: instruction budget, time and memory per call, data depth.
  public var limits: LuaVM.Limits {
    get { vm.limits }
    set { vm.limits = newValue }
  }
}
