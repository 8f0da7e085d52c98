import CustomDump
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// How a run shows what happens: JSON events, one per line, or text for a person at a terminal.
@MainActor
protocol RunOutput: AnyObject {
  func ready(feature: String, state: LuaState, view: String?)
  func action(_ action: LuaValue, source: String)
  /// The state after an action. `changes` says what changed, in order (`nil`: not known, compare
  /// the states); `view` is the feature's view when it changed and this output shows views.
  /// `before` is there when ``needsStateBefore``.
  func state(before: LuaState?, after: LuaState, changes: [LuaStateChange]?, view: String?)
  /// Whether the feature's view is worth rendering for this output after each change.
  var showsView: Bool { get }
  /// Whether ``state(before:after:changes:view:)`` needs the state before the action (to show a
  /// diff). Keeping it costs each action the size of what it changes.
  var needsStateBefore: Bool { get }
  func effect(_ status: String, for action: LuaValue, running: Int)
  func error(_ error: LuaFeatureError)
  func inputError(_ message: String, line: String)
  /// An error of the host rather than of the feature (a value that cannot be written as JSON or
  /// recorded, a shared file that cannot be read); `kind` says which (`output`, `record`, `data`).
  func hostError(kind: String, message: String)
  /// Something the user should know, which is not an error (a file renamed aside).
  func warning(_ message: String)
  /// How many host errors were shown: the run's exit status counts them.
  var hostErrors: Int { get }
  func note(_ text: String)
  /// What a script printed with `print(…)`.
  func printed(_ text: String)
}

extension RunOutput {
  /// The state after an action, its changes not known.
  func state(before: LuaState?, after: LuaState, view: String?) {
    state(before: before, after: after, changes: nil, view: view)
  }
}

/// `{"event":…}` lines on standard output.
@MainActor
final class JSONRunOutput: RunOutput {
  private(set) var hostErrors = 0
  /// The plugin every event names (`"plugin": "dogs"`), in `lunar host`.
  let plugin: String?
  /// Whether state events carry the whole state (`--full-state`) rather than what changed.
  var fullState = false
  /// Whether events carry the feature's view (`--view`).
  var showsView = true

  init(plugin: String? = nil, fullState: Bool = false, showsView: Bool = true) {
    self.plugin = plugin
    self.fullState = fullState
    self.showsView = showsView
  }

  /// Writes `event` as one line, with the plugin's name when there is one.
  func emit(_ event: HostEvent) {
    let (line, complete) = event.encoded(plugin: plugin)
    // NB: a value JSON cannot hold (text that is not UTF-8, NaN) is an error of its own; the
    //     feature did nothing wrong, and the run goes on.
    if !complete { hostErrors += 1 }
    print(line)
    flushStandardOutput()
  }

  func ready(feature: String, state: LuaState, view: String?) {
    emit(.ready(feature: feature, state: state.value, view: view))
  }

  func action(_ action: LuaValue, source: String) {
    emit(.action(action, source: source))
  }

  var needsStateBefore: Bool { false }

  func state(before: LuaState?, after: LuaState, changes: [LuaStateChange]?, view: String?) {
    if let changes, !fullState {
      emit(.state(changed: !changes.isEmpty, content: .patch(.array(changes.map(Self.patchEntry))), view: view))
    } else {
      let changed = changes.map { !$0.isEmpty } ?? before.map { $0 != after } ?? true
      emit(.state(changed: changed, content: .whole(after.value), view: view))
    }
  }

  /// One change as the `patch` of a state event: `{"op":"set","path":["todos",3],"value":…}` or
  /// `{"op":"remove","path":["editing"]}`.
  static func patchEntry(_ change: LuaStateChange) -> LuaValue {
    if change.value.isNil { return ["op": "remove", "path": .array(change.path)] }
    return ["op": "set", "path": .array(change.path), "value": change.value]
  }

  func effect(_ status: String, for action: LuaValue, running: Int) {
    emit(.effect(status: status, type: action[LuaString("type")], running: running))
  }

  func error(_ error: LuaFeatureError) {
    emit(.featureError(HostEvent.FeatureFailure(error)))
  }

  func inputError(_ message: String, line: String) {
    emit(.inputError(message: JSONText.shortened(message, limit: 1000), input: JSONText.shortened(line)))
  }

  func hostError(kind: String, message: String) {
    hostErrors += 1
    emit(.hostError(kind: kind, message: message))
  }

  func warning(_ message: String) {
    emit(.warning(message))
  }

  func note(_ text: String) {
    emit(.note(text))
  }

  func printed(_ text: String) {
    emit(.printed(text))
  }
}

extension HostEvent.FeatureFailure {
  /// `error` as error and reload events write it.
  init(_ error: LuaFeatureError) {
    self.init(
      kind: error.kind.rawValue, feature: error.feature, message: error.message, file: error.file, line: error.line,
      action: error.action, traceback: error.traceback)
  }
}

/// Coloured text for a person: the action, the state's diff, effects, errors.
@MainActor
final class TextRunOutput: RunOutput {
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
