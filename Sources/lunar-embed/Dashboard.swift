import LunarPlugins

/// A Swift feature with a Lua plugin's feature inside it: it counts the taps it forwards to the
/// plugin, and the plugin's state lives in its own.
struct Dashboard: Reducer {
  struct State: Equatable {
    /// The plugin's state, as the plugin's reducer keeps it.
    var counter: LuaState
    /// Taps forwarded to the plugin.
    var taps = 0
  }

  enum Action: Sendable, CasePathable {
    /// An action of the plugin's feature.
    case counter(LuaValue)
    /// A tap on the dashboard's button: forwarded to the plugin as `increment`.
    case tapped

    struct AllCasePaths {
      var counter: AnyCasePath<Action, LuaValue> {
        AnyCasePath(embed: Action.counter) {
          guard case let .counter(action) = $0 else { return nil }
          return action
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// The plugin whose feature runs inside.
  let plugin: PluginReducer

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: \.counter) { plugin }
    Reduce { state, action in
      switch action {
      case .tapped:
        state.taps += 1
        return .send(.counter(["type": "increment"]))
      case .counter:
        return .none
      }
    }
  }
}
