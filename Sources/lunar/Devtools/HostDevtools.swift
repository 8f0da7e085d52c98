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
  private var plugins: [String: PluginDevtools] = [:]
  /// The plugin the page shows when it names none: the one in use at the shell.
  var current: () -> String? = { nil }

  init(historyLimit: Int, seed: UInt64) {
    self.historyLimit = historyLimit
    self.seed = seed
  }

  /// The glue of `plugin`, made when it is first asked for; it reports to the page only while one shows it.
  func glue(for plugin: Plugin) -> PluginDevtools {
    if let glue = plugins[plugin.name], glue.plugin === plugin { return glue }
    let hub = plugins[plugin.name]?.hub
      ?? DevtoolsHub(feature: plugin.folder.path, name: plugin.feature.name, session: plugin.name, seed: seed, historyLimit: historyLimit)
    hub.luaClients = Recorder.clients(of: plugin.feature)
    let glue = PluginDevtools(plugin: plugin, hub: hub, directory: self)
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

/// The devtools page of one plugin's main session.
@MainActor
final class PluginDevtools: DevtoolsHost {
  let plugin: Plugin
  let hub: DevtoolsHub
  private unowned let directory: HostDevtools
  /// The hub while a page shows this plugin; `nil` otherwise, so an unwatched plugin pays a `nil` check.
  private var watching: DevtoolsHub?
  private var pending: (action: LuaValue, source: DevtoolsSource, errors: [DevtoolsError])?
  private var dispatching = false
  private var lastSent: Int?
  private var effects: [Int] = []

  init(plugin: Plugin, hub: DevtoolsHub, directory: HostDevtools) {
    self.plugin = plugin
    self.hub = hub
    self.directory = directory
    hub.host = self
  }

  // MARK: - DevtoolsHost

  var sessions: [String] { directory.names }

  func observe(_ hub: DevtoolsHub?) { watching = hub }

  func snapshot() -> (state: LuaValue, view: String?) {
    (plugin.state.value, plugin.render())
  }

  func dispatch(_ text: String) throws {
    let action = try ActionParser(vm: plugin.luaHost.vm).parse(text)
    if let problem = TypedActionCheck.refusal(of: action, by: plugin.feature) { throw DevtoolsRefusal(message: problem) }
    dispatching = true
    defer { dispatching = false }
    plugin.send(action)
  }

  func resume(_ state: LuaValue) throws {
    throw DevtoolsRefusal(message: "lunar host cannot put a plugin's store back in an earlier state; lunar run --devtools can")
  }

  func render(_ state: LuaValue) -> String? {
    plugin.render(LuaState(state))
  }

  func exportTest(recording: String) throws -> String {
    let parsed = try Recording(text: recording, name: "the devtools session")
    return try RecordingTestWriter(recording: parsed, module: "feature", recordingName: "devtools session").luaTest()
  }

  // MARK: - What the plugin's session does

  func willReduce(_ action: LuaValue, source: PluginSession.Source) {
    guard watching != nil else { return }
    let shown: DevtoolsSource = source == .effect ? .effect : (dispatching ? .devtools : .input)
    pending = (action, shown, [])
  }

  func didReduce(after: LuaState, changed: Bool) {
    guard let watching, let pending else { return }
    self.pending = nil
    let id = watching.record(pending.source, action: pending.action, state: after.value, view: changed ? plugin.render(after) : nil)
    if pending.source != .effect { lastSent = id }
    for error in pending.errors { watching.recordError(error) }
  }

  func failed(_ error: LuaFeatureError) {
    guard let watching else { return }
    let shown = DevtoolsError(kind: error.kind.rawValue, message: error.message, file: error.file, line: error.line)
    if pending != nil { pending?.errors.append(shown) } else { watching.recordError(shown) }
  }

  func effects(of action: LuaValue, started: Bool) {
    guard let watching else { return }
    if started {
      effects.append(watching.effectStarted(entry: lastSent, actionType: action[LuaString("type")].stringValue ?? "?"))
    } else if !effects.isEmpty {
      watching.effectEnded(effects.removeFirst(), cancelled: false)
    }
  }

  func reloaded() {
    guard let watching else { return }
    watching.record(.reload, action: nil, state: plugin.state.value, view: plugin.render(), note: "reloaded, state kept")
  }
}
