import CustomDump
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// Coloured text for a person: the action, the state's diff, effects, errors.
@MainActor
final class TextSessionOutput: SessionOutput {
  let terminal = Terminal.standardOutput
  private(set) var hostErrors = 0
  /// Put before actions, effects, errors and printed text (`[dogs] `), in `lunar host`.
  let label: String

  init(plugin: String? = nil) {
    self.label = plugin.map { "[\($0)] " } ?? ""
  }

  private var tag: String { label.isEmpty ? "" : terminal.dim(label) }

  func ready(feature: String, state: LuaState, view: String?) {
    print(terminal.bold("\(feature)") + terminal.dim("  — type an action (increment, add title=milk, { type = \"x\" }), :help for commands"))
    print(String(customDumping: state))
    if let view { print(terminal.blue(view)) }
  }

  func action(_ action: LuaValue, source: String) {
    let arrow = source == "input" ? "→" : "⇠"
    print(tag + terminal.bold("\(arrow) \(action)") + (source == "input" ? "" : terminal.dim("  (from an effect)")))
  }

  var showsView: Bool { true }
  var needsStateBefore: Bool { true }

  func state(before: LuaState?, after: LuaState, changes: [LuaStateChange]?, view: String?) {
    if let difference = before.flatMap({ diff($0, after) }) {
      print(terminal.diff(difference))
    } else {
      print(terminal.dim("  (no state change)"))
    }
    if let view { print(terminal.blue(view)) }
  }

  func effect(_ status: String, for action: LuaValue, running: Int) {
    let type = action[LuaString("type")].stringValue ?? "?"
    print(tag + terminal.yellow("  ⚙ effect of \(type) \(status)") + terminal.dim(" (\(running) running)"))
  }

  func error(_ error: LuaFeatureError) {
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
