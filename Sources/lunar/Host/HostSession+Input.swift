import Foundation
import LuaBridge
import LuaFeatures
import LunarPlugins

extension HostSession {
  /// A JSON line: `{ "plugin": "dogs", "action": { … } }` (or the action as text, as the shell
  /// takes it), or `{ "command": "list" | "wait" | "unload" | "reload" | "load", … }`.
  func handleJSON(_ text: String, line: String) async -> Bool {
    let value: LuaValue
    do {
      value = try LuaJSONDecoder().decode(text)
    } catch {
      inputError("a line is a JSON object like {\"plugin\": \"counter\", \"action\": {\"type\": \"increment\"}}: \(error)", line: line)
      return true
    }
    guard case .table = value else {
      inputError("a line is a JSON object like {\"plugin\": \"counter\", \"action\": {\"type\": \"increment\"}}, got \(value.luaType)", line: line)
      return true
    }
    if let command = value["command"].stringValue {
      return await run(command, plugin: value["plugin"].stringValue, path: value["path"].stringValue, line: line)
    }
    guard let name = value["plugin"].stringValue else {
      inputError("a line names its plugin: {\"plugin\": \"counter\", \"action\": {…}} (plugins: \(names))", line: line)
      return true
    }
    guard let plugin = host[name] else {
      inputError("no plugin named \(name) is loaded (plugins: \(names))", line: line)
      return true
    }
    switch value["action"] {
    case let .string(string):
      send(string.description, to: plugin, line: line)
    case let action where action["type"].stringValue != nil:
      if let problem = TypedActionCheck.refusal(of: action, by: plugin.feature) {
        inputError(problem, line: line)
      } else {
        plugin.send(action)
      }
    default:
      inputError("\"action\" is an action like {\"type\": \"increment\"} (or the text \"increment\"), got \(value["action"].luaType)", line: line)
    }
    return true
  }

  /// The names of the plugins loaded, for messages.
  var names: String {
    let names = host.all.map(\.name)
    return names.isEmpty ? "none" : names.joined(separator: ", ")
  }

  /// Runs a command of a JSON line (`{"command": "reload", "plugin": "dogs"}`); returns `false`
  /// when the session should end.
  func run(_ name: String, plugin: String?, path: String?, line: String) async -> Bool {
    guard let command = PromptCommand(named: name, argument: plugin, path: path, servedBy: .host) else {
      inputError("unknown command \(name) (commands: list, wait, use, state, view, load, unload, reload, quit)", line: line)
      return true
    }
    return await run(command, line: line)
  }

  /// Runs a command of either mode; returns `false` when the session should end.
  func run(_ command: PromptCommand, line: String) async -> Bool {
    switch command {
    case .quit:
      return false
    case .help:
      output.note(PromptCommand.help(for: .host))
    case .plugins:
      output.list(host.all)
    case .wait:
      let running = await settle(timeout: .seconds(5))
      if running > 0 { output.note("\(running) effect(s) still running after 5s") }
    case let .unload(plugin):
      guard let name = plugin ?? current, host[name] != nil else { return missing(plugin, line: line) }
      await host.unload(name)
    case let .reload(plugin):
      guard let name = plugin ?? current, host[name] != nil else { return missing(plugin, line: line) }
      _ = try? host.reload(name)
    case let .load(path):
      guard let path else {
        inputError("load needs a plugin folder: {\"command\": \"load\", \"path\": \"plugins/dogs\"}", line: line)
        return true
      }
      _ = try? host.load(URL(fileURLWithPath: path))
    case let .use(plugin):
      guard let name = plugin, host[name] != nil else { return missing(plugin, line: line) }
      current = name
      if !scripted { output.note("using \(name)") }
    case let .state(plugin):
      guard let name = plugin ?? current, let loaded = host[name] else { return missing(plugin, line: line) }
      output.note(LuaNotation.block.text(loaded.state.value))
    case let .view(plugin):
      guard let name = plugin ?? current, let loaded = host[name] else { return missing(plugin, line: line) }
      output.note(loaded.render() ?? "(\(name) has no view)")
    case .history, .deps, .mute, .unmute, .expand, .reset:
      // NB: `lunar run`'s: `PromptCommand` never gives them to a host.
      break
    }
    return true
  }

  private func missing(_ plugin: String?, line: String) -> Bool {
    let what = plugin.map { "no plugin named \($0) is loaded" } ?? "name a plugin"
    inputError("\(what) (plugins: \(names))", line: line)
    return true
  }

  /// A shell command: `:plugins`, `:use dogs`, `:state`, `:view`, `:wait`, `:reload [NAME]`,
  /// `:unload [NAME]`, `:load PATH`, `:help`, `:quit`.
  func command(_ text: String) async -> Bool {
    guard text.dropFirst().contains(where: { $0 != " " }) else { return true }
    guard let command = PromptCommand(typed: text, servedBy: .host) else {
      inputError("unknown command \(text) (try :help)", line: text)
      return true
    }
    return await run(command, line: text)
  }
}
