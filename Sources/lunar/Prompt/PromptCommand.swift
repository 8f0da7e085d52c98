import Foundation

/// A command of `lunar run`'s and `lunar host`'s prompt (`:state`, `:use dogs`, …), or of a JSON
/// line of `lunar host` (`{"command": "wait"}`): one set, read and explained in one place, each
/// host serving the commands that mean something to it.
///
/// ```swift
/// PromptCommand(typed: ":view counter", servedBy: .host)   // .view(plugin: "counter")
/// PromptCommand(typed: ":use counter", servedBy: .run)     // nil: lunar run has one feature
/// ```
enum PromptCommand: Equatable {
  /// Leave at once, cancelling running effects.
  case quit
  /// What can be typed.
  case help
  /// Wait for running effects, then go on.
  case wait
  /// The whole state (of the plugin named, or in use).
  case state(plugin: String?)
  /// The feature's view (of the plugin named, or in use).
  case view(plugin: String?)
  /// The input actions sent so far.
  case history
  /// The dependencies the feature can use.
  case deps
  /// Every plugin, with its status and costs.
  case plugins
  /// Send the next actions to a plugin.
  case use(plugin: String?)
  /// Load the plugin in a folder.
  case load(path: String?)
  /// Reload a plugin from its folder.
  case reload(plugin: String?)
  /// Unload a plugin.
  case unload(plugin: String?)
  /// Show no more actions of a type (`nil`: list the muted types).
  case mute(type: String?)
  /// Show the actions of a type again.
  case unmute(type: String?)
  /// Show the last action (or state) whole, as the limits cut it.
  case expand
  /// Put the state back to the feature's initial one, cancelling running effects.
  case reset

  /// Which host a prompt belongs to: each serves its own commands of the set.
  enum Host {
    /// `lunar run`: one feature.
    case run
    /// `lunar host`: plugins, one of them in use.
    case host
  }

  /// The command a line typed at `host`'s prompt (`:name [argument]`) names; `nil` for one the
  /// host does not serve.
  init?(typed text: String, servedBy host: Host) {
    let words = text.dropFirst().split(separator: " ").map(String.init)
    guard text.hasPrefix(":"), let name = words.first else { return nil }
    let argument = words.dropFirst().first
    switch host {
    // NB: `lunar run` has always read only the command's first word: `:state now` is `:state`.
    case .run: self.init(named: name, argument: ["mute", "unmute"].contains(name) ? argument : nil, path: nil, servedBy: host)
    case .host: self.init(named: name, argument: name == "load" ? nil : argument, path: name == "load" ? argument : nil, servedBy: host)
    }
  }

  /// The command `name` names (`quit`, `list`, `view`, …) with its plugin `argument` or `path`;
  /// `nil` for one `host` does not serve.
  init?(named name: String, argument: String?, path: String?, servedBy host: Host) {
    let command: PromptCommand
    switch name {
    case "q", "quit", "exit": command = .quit
    case "help": command = .help
    case "wait": command = .wait
    case "state": command = .state(plugin: argument)
    case "view": command = .view(plugin: argument)
    case "history": command = .history
    case "deps": command = .deps
    case "plugins", "list": command = .plugins
    case "use": command = .use(plugin: argument)
    case "load": command = .load(path: path)
    case "reload": command = .reload(plugin: argument)
    case "unload": command = .unload(plugin: argument)
    case "mute": command = .mute(type: argument)
    case "unmute": command = .unmute(type: argument)
    case "expand": command = .expand
    case "reset": command = .reset
    default: return nil
    }
    guard command.isServed(by: host) else { return nil }
    self = command
  }

  /// Whether `host` serves the command.
  func isServed(by host: Host) -> Bool {
    switch (self, host) {
    case (.quit, _), (.help, _), (.wait, _), (.state, _), (.view, _): true
    case (.history, .run), (.deps, .run), (.mute, .run), (.unmute, .run), (.expand, .run), (.reset, .run): true
    case (.plugins, .host), (.use, .host), (.load, .host), (.reload, .host), (.unload, .host): true
    default: false
    }
  }

  /// What `:help` shows at `host`'s prompt: how to type an action, then the commands it serves.
  static func help(for host: Host) -> String {
    let actions = switch host {
    case .run:
      """
      Type an action and press return:
        increment                          a bare type
        add title=milk count=2 done=true   a type and fields, read as Lua literals (note="two words", tags={ "a" })
        { type = "add", tags = { "a" } }   a Lua table literal
        {"type": "add", "tags": ["a"]}     a JSON object (its first key quoted, then a colon)
      Commands:
      """
    case .host:
      "Type an action for the plugin in use (increment, add title=milk, { type = \"x\" }), or a command:"
    }
    let commands: [(PromptCommand, String, String)] = [
      (.plugins, ":plugins", "every plugin: status, version, grants, actions, time per action, memory, errors"),
      (.use(plugin: nil), ":use NAME", "send the next actions to NAME"),
      (.state(plugin: nil), host == .run ? ":state" : ":state [NAME]", host == .run ? "the whole state" : "the state of the plugin in use (or of NAME)"),
      (.view(plugin: nil), host == .run ? ":view" : ":view [NAME]", host == .run ? "the feature's view" : "the view of the plugin in use (or of NAME)"),
      (.history, ":history", "the actions sent"),
      (.mute(type: nil), ":mute [TYPE]", "show no more actions of TYPE (or of a child: dogs); alone, list the muted types"),
      (.unmute(type: nil), ":unmute TYPE", "show the actions of TYPE again"),
      (.expand, ":expand", "the last action (or :state) whole, where the limits cut it (--depth, --lines)"),
      (.reset, ":reset", "back to the initial state, cancelling running effects"),
      (.deps, ":deps", "the dependencies it can use"),
      (.reload(plugin: nil), ":reload [NAME]", "reload a plugin from its folder (the running version serves if that fails)"),
      (.unload(plugin: nil), ":unload [NAME]", "unload a plugin (its effects are cancelled)"),
      (.load(path: nil), ":load PATH", "load the plugin in a folder"),
      (.wait, ":wait", host == .run ? "wait for running effects (at most --timeout seconds), then go on" : "wait for running effects (at most 5 seconds)"),
      (.help, ":help", "this text"),
      (.quit, ":quit", "leave at once, cancelling running effects (or ctrl-D)"),
    ]
    let served = commands.filter { $0.0.isServed(by: host) }
    let width = served.map(\.1.count).max() ?? 0
    let lines = served.map { "  \($0.1.padding(toLength: width, withPad: " ", startingAt: 0))   \($0.2)" }
    return ([actions] + lines).joined(separator: "\n")
  }
}
