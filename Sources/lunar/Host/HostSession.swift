import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// `lunar host`: every plugin of a folder in one process, fed by lines of input — JSON lines
/// addressed to a plugin, or, at the shell, actions for the plugin in use and `:` commands.
@MainActor
final class HostSession {
  let host: PluginHost
  let output: HostOutput
  /// Whether input is JSON lines (`--json`, or input that is not a terminal).
  let scripted: Bool
  /// The plugin the shell's actions go to (`:use`).
  var current: String?
  /// Errors so far: plugins' errors and failures, and input that was not understood.
  private(set) var errors = 0
  /// Parsers of typed actions, one per plugin VM.
  private var parsers: [String: ActionParser] = [:]
  /// The folder the plugins came from, and its watch (`--watch`).
  let folder: URL
  var watch: PluginWatch?
  /// The devtools pages of the plugins (`--devtools`).
  var devtools: HostDevtools?

  init(host: PluginHost, folder: URL, output: HostOutput, scripted: Bool) {
    self.host = host
    self.folder = folder
    self.output = output
    self.scripted = scripted
    host.onEvent = { [weak self] event in self?.handle(event) }
  }

  var hadErrors: Bool { errors > 0 || output.errorsShown > 0 }

  /// Loads every plugin of the folder; the first one loaded is the one in use.
  func start() {
    host.loadAll(in: folder)
    current = host.all.first?.name
  }

  private func handle(_ event: PluginEvent) {
    switch event {
    case let .loaded(plugin):
      attach(plugin)
      output.loaded(plugin, view: plugin.render())
      if current == nil { current = plugin.name }
    case let .reloaded(plugin):
      parsers[plugin.name] = nil
      output.reloaded(plugin)
      devtools?.glue(for: plugin).reloaded(files: [], error: nil)
    case let .unloaded(name):
      parsers[name] = nil
      output.unloaded(name)
      if current == name { current = host.all.first?.name }
    case let .failed(error, reloading):
      errors += 1
      output.failed(error, reloading: reloading)
    case let .error(plugin, error):
      errors += 1
      output.output(for: plugin).error(error)
      if let loaded = host[plugin] { devtools?.glue(for: loaded).failed(error) }
    case let .printed(plugin, text):
      output.output(for: plugin).printed(text)
    case let .warning(plugin, warning):
      output.output(for: plugin).warning(warning)
    }
  }

  /// Shows what the plugin's main session does: each action, the state it leads to, its effects.
  private func attach(_ plugin: Plugin) {
    let out = output.output(for: plugin.name)
    let session = plugin.main
    let inspector = devtools?.glue(for: plugin)
    session.onAction = { action, source in
      out.action(action, source: source == .send ? "input" : "effect")
      inspector?.willReduce(action, source: source == .send ? "input" : "effect")
    }
    session.onReduce = { [weak plugin] _, _, before, after in
      let view = before == after ? nil : plugin?.render(after)
      out.state(before: before, after: after, view: view)
      inspector?.didReduce(state: after, view: view)
    }
    // NB: the page shows where an effect was created; unwatched, it costs a closure call.
    if let inspector { session.onReturn = { effect in inspector.returned(effect) } }
    session.onEffects = { action, change, running in
      let started = if case .started = change { true } else { false }
      out.effect(started ? "started" : "finished", for: action, running: running)
      inspector?.effects(of: action, change)
    }
  }

  /// Handles one line of input; returns `false` when the session should end.
  func handle(_ line: String) async -> Bool {
    let text = line.trimmingCharacters(in: .whitespaces)
    if text.isEmpty || text.hasPrefix("--") { return true }
    if scripted { return await handleJSON(text, line: line) }
    if text.hasPrefix(":") { return await command(text) }
    guard let name = current, let plugin = host[name] else {
      inputError("no plugin in use: load one, or pick one with :use NAME (:plugins lists them)", line: line)
      return true
    }
    send(text, to: plugin, line: line)
    return true
  }

  /// Parses `text` as an action for `plugin` (a type, `type key=value…`, or a Lua table) and sends it.
  func send(_ text: String, to plugin: Plugin, line: String) {
    let parser = parsers[plugin.name] ?? ActionParser(vm: plugin.luaHost.vm)
    parsers[plugin.name] = parser
    do {
      let action = try parser.parse(text)
      if let problem = TypedActionCheck.refusal(of: action, by: plugin.feature) { return inputError(problem, line: line) }
      plugin.send(action)
    } catch {
      inputError(error.description, line: line)
    }
  }

  func inputError(_ message: String, line: String) {
    errors += 1
    output.inputError(message, line: line)
  }

  /// Effects running in every plugin.
  var effectsRunning: Int { host.all.reduce(0) { $0 + $1.accounting.effectsRunning } }

  /// Waits until no plugin has an effect running, or `timeout` passes; returns how many still run.
  func settle(timeout: Duration) async -> Int {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while effectsRunning > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return effectsRunning
  }
}
