import LuaBridge
import LuaFeatures
import LunarPlugins

/// `lunar run --devtools`: the session is what its page looks at and acts on (it puts its store
/// back in an earlier state with ``RunSession/resume(_:)``).
extension RunSession: DevtoolsSubject {
  var servingFeature: LuaFeature { feature }

  func snapshot() -> (state: LuaState, view: String?) {
    let state = store.withState { $0 }
    return (state, view(of: state))
  }

  func devtoolsView(of state: LuaState) -> String? {
    // NB: a state the page shows again; its view failing is not the running session's error.
    try? session.render(state)
  }

  func parseAction(_ text: String) throws -> LuaValue {
    try parser.parse(text)
  }

  func sendFromDevtools(_ action: LuaValue) {
    _ = send(action, source: "devtools")
  }

  func recomputingReducer() throws -> PluginReducer {
    plugin.reducer()
  }

  var testModule: String {
    feature.location?.script.deletingPathExtension().lastPathComponent ?? "feature"
  }
}
