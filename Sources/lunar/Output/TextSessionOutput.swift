import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// Coloured text for a person: the action, the state's diff, effects, errors — in full or one line
/// per action (``TextDisplay``), within limits, muted action types left out.
@MainActor
final class TextSessionOutput: SessionOutput {
  let terminal = Terminal.standardOutput
  private(set) var hostErrors = 0
  /// Put before actions, effects, errors and printed text (`[dogs] `), in `lunar host`.
  let label: String
  /// How much of each action is shown.
  var display: TextDisplay
  /// Action types shown not at all (`:mute`).
  private(set) var muted: Set<String> = []
  /// Examples of actions for the banner (the feature's own, when it declares them).
  var examples: [String] = []
  /// The action being reduced: how it shows, until its state is shown.
  private var current: (action: LuaValue, source: String, compact: Bool, muted: Bool)?
  /// When effects last sent an action of each type (`auto` shows a repeat within a second compact).
  private var lastFromEffect: [String: ContinuousClock.Instant] = [:]
  /// The last action shown, whole (`:expand`).
  private var lastWhole: (() -> String)?

  init(plugin: String? = nil, display: TextDisplay = .standard) {
    self.label = plugin.map { "[\($0)] " } ?? ""
    self.display = display
  }

  private var tag: String { label.isEmpty ? "" : terminal.dim(label) }

  func ready(feature: String, state: LuaState, view: String?) {
    let typed = (examples.isEmpty ? ["increment", "add title=milk"] : examples) + ["{ type = \"x\" }"]
    print(terminal.bold("\(feature)") + terminal.dim("  — type an action (\(typed.joined(separator: ", "))), :help for commands"))
    print(dump(state))
    if let view { print(terminal.blue(clip(view))) }
  }

  /// `state` as Lua within the depth and line limits (`:state`).
  func dump(_ state: LuaState) -> String {
    let (text, cut) = display.clipped(display.notation.text(state.value))
    if cut || display.depth != nil {
      lastWhole = { LuaNotation.block.text(state.value) }
    }
    return text
  }

  func action(_ action: LuaValue, source: String) {
    let type = action[LuaString("type")].stringValue ?? ""
    let isMuted = muted.contains(type) || ValueText.path(of: action).map { muted.contains($0.0) } == true
    var compact = display.mode == .compact
    if display.mode == .auto, source == "effect" {
      let now = ContinuousClock.now
      if let last = lastFromEffect[type], now - last < .seconds(1) { compact = true }
      lastFromEffect[type] = now
    }
    current = (action, source, compact, isMuted)
    guard !isMuted, !compact else { return }
    print(tag + terminal.bold("\(arrow(source)) \(display.values.action(action))") + origin(source))
  }

  private func arrow(_ source: String) -> String { source == "effect" ? "⇠" : "→" }

  private func origin(_ source: String) -> String {
    switch source {
    case "effect": terminal.dim("  (from an effect)")
    case "devtools": terminal.dim("  (from the devtools)")
    default: ""
    }
  }

  var showsView: Bool { true }
  var needsStateBefore: Bool { true }

  func state(before: LuaState?, after: LuaState, changes: [LuaStateChange]?, view: String?) {
    guard let current else { return showState(before: before, after: after, view: view) }
    self.current = nil
    if current.muted { return }
    let action = current.action
    lastWhole = {
      var parts = ["\(self.arrow(current.source)) \(ValueText.full.action(action))"]
      parts.append(before.flatMap { LuaNotation.block.diff($0.value, after.value) } ?? "  (no state change)")
      if let view { parts.append(view) }
      return parts.joined(separator: "\n")
    }
    guard current.compact else { return showState(before: before, after: after, view: view) }
    let what: String
    if let changes {
      what = changes.isEmpty ? terminal.dim("(no state change)") : display.values.cut(changes.map(display.values.change).joined(separator: ", "))
    } else {
      what = before == after ? terminal.dim("(no state change)") : "(state changed: :expand shows how)"
    }
    print(tag + terminal.bold("\(arrow(current.source)) \(display.values.action(action))") + "  " + what)
  }

  private func showState(before: LuaState?, after: LuaState, view: String?) {
    if let difference = before.flatMap({ display.notation.diff($0.value, after.value) }) {
      print(terminal.diff(clip(difference)))
    } else {
      print(terminal.dim("  (no state change)"))
    }
    if let view { print(terminal.blue(clip(view))) }
  }

  private func clip(_ text: String) -> String {
    display.clipped(text).0
  }

  /// Leaves out the actions of `type` (`:mute`), or shows them again (`:unmute`).
  func mute(_ type: String, _ on: Bool) {
    if on { muted.insert(type) } else { muted.remove(type) }
  }

  /// The last action (or `:state`) shown, whole: its action, diff and view uncut.
  func expand() -> String? {
    lastWhole?()
  }

  func effect(_ status: String, for action: LuaValue, running: Int) {
    guard !muted.contains(action[LuaString("type")].stringValue ?? "") else { return }
    let type = ValueText.path(of: action)?.0 ?? "?"
    print(tag + terminal.yellow("  ⚙ effect of \(type) \(status)") + terminal.dim(" (\(running) running)"))
  }

  func error(_ error: LuaFeatureError) {
    // NB: a compact or muted action shows nothing until its state does: an error comes first.
    if let current, current.compact, !current.muted {
      print(tag + terminal.bold("\(arrow(current.source)) \(display.values.action(current.action))") + origin(current.source))
      self.current = (current.action, current.source, false, false)
    }
    printError(Terminal.standardError.red(label + error.description))
  }

  func inputError(_ message: String, line: String) {
    printError(Terminal.standardError.red("error: \(JSONText.shortened(message, limit: 1000))"))
  }

  func hostError(kind: String, message: String) {
    hostErrors += 1
    printError(Terminal.standardError.red("error: \(message)"))
  }

  func warning(_ message: String) {
    printError(Terminal.standardError.yellow("warning: \(message)"))
  }

  func note(_ text: String) {
    print(terminal.dim(text))
  }

  func printed(_ text: String) {
    print(label + text)
  }
}
