import Foundation
import LuaBridge
import LuaFeatures
import LunarDevtools
import LunarHostSupport
import LunarPlugins

/// `lunar host --devtools`: a devtools page per plugin (its main session), switched between on the
/// page (`/?session=NAME`).
@MainActor
final class HostDevtools {
  let historyLimit: Int
  let seed: UInt64
  private var plugins: [String: DevtoolsBinding] = [:]
  /// The plugin the page shows when it names none: the one in use at the shell.
  var current: () -> String? = { nil }

  init(historyLimit: Int, seed: UInt64) {
    self.historyLimit = historyLimit
    self.seed = seed
  }

  /// The binding of `plugin`, made when it is first asked for; it reports to the plugin's hub from
  /// then on, so that a page opened later sees the plugin's actions since.
  func glue(for plugin: Plugin) -> DevtoolsBinding {
    if let glue = plugins[plugin.name], glue.subject === plugin { return glue }
    let hub = plugins[plugin.name]?.hub
      ?? DevtoolsHub(feature: plugin.folder.path, name: plugin.feature.name, session: plugin.name, seed: seed, historyLimit: historyLimit)
    let glue = DevtoolsBinding(subject: plugin, hub: hub, sessions: { [unowned self] in self.names })
    plugins[plugin.name] = glue
    return glue
  }

  /// The hub of the plugin named `name` (or of the one in use), for the server.
  func hub(named name: String?) -> DevtoolsHub? {
    guard let name = name ?? current() ?? plugins.keys.sorted().first else { return nil }
    return plugins[name]?.hub
  }

  var names: [String] { plugins.keys.sorted() }
}

/// A plugin of `lunar host --devtools` is what its page looks at and acts on: its main session.
extension Plugin: DevtoolsSubject {
  var servingFeature: LuaFeature { feature }

  func snapshot() -> (state: LuaState, view: String?) {
    (state, render())
  }

  func devtoolsView(of state: LuaState) -> String? {
    render(state)
  }

  func parseAction(_ text: String) throws -> LuaValue {
    try ActionParser(vm: luaHost.vm).parse(text)
  }

  func sendFromDevtools(_ action: LuaValue) {
    send(action)
  }

  func resume(_ state: LuaValue) throws {
    throw DevtoolsRefusal(message: "lunar host cannot put a plugin's store back in an earlier state; lunar run --devtools can")
  }

  func recomputingReducer() throws -> PluginReducer {
    throw DevtoolsRefusal(message: "lunar host cannot put a plugin's store in a recomputed state; lunar run --devtools can")
  }

  var testModule: String { "feature" }
}
