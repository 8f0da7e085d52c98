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
      if let problem = plugin.feature.problem(with: action) {
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

  /// Runs a command of either mode; returns `false` when the session should end.
  func run(_ command: String, plugin: String?, path: String?, line: String) async -> Bool {
    switch command {
    case "quit":
      return false
    case "list", "plugins":
      output.list(host.all)
    case "wait":
      let running = await settle(timeout: .seconds(5))
      if running > 0 { output.note("\(running) effect(s) still running after 5s") }
    case "unload":
      guard let name = plugin ?? current, host[name] != nil else { return missing(plugin, line: line) }
      await host.unload(name)
    case "reload":
      guard let name = plugin ?? current, host[name] != nil else { return missing(plugin, line: line) }
      _ = try? host.reload(name)
    case "load":
      guard let path else {
        inputError("load needs a plugin folder: {\"command\": \"load\", \"path\": \"plugins/dogs\"}", line: line)
        return true
      }
      _ = try? host.load(URL(fileURLWithPath: path))
    case "use":
      guard let name = plugin, host[name] != nil else { return missing(plugin, line: line) }
      current = name
      if !scripted { output.note("using \(name)") }
    case "state", "view":
      guard let name = plugin ?? current, let loaded = host[name] else { return missing(plugin, line: line) }
      output.note(command == "view" ? loaded.render() ?? "(\(name) has no view)" : "\(loaded.state)")
    default:
      inputError("unknown command \(command) (commands: list, wait, use, state, view, load, unload, reload, quit)", line: line)
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
    let words = text.dropFirst().split(separator: " ").map(String.init)
    guard let name = words.first else { return true }
    let argument = words.dropFirst().first
    switch name {
    case "q", "quit", "exit": return false
    case "help":
      output.note(Self.help)
      return true
    case "load": return await run("load", plugin: nil, path: argument, line: text)
    default: return await run(name, plugin: argument, path: nil, line: text)
    }
  }

  static let help = """
    Type an action for the plugin in use (increment, add title=milk, { type = "x" }), or a command:
      :plugins           every plugin: status, version, grants, actions, time per action, memory, errors
      :use NAME          send the next actions to NAME
      :state, :view      the state and view of the plugin in use (or :view NAME)
      :reload [NAME]     reload a plugin from its folder (the running version serves if that fails)
      :unload [NAME]     unload a plugin (its effects are cancelled)
      :load PATH         load the plugin in a folder
      :wait              wait for running effects (at most 5 seconds)
      :help, :quit
    """
}
