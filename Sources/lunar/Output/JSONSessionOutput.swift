import LuaBridge
import LuaFeatures
import LunarHostSupport

/// `{"event":…}` lines on standard output.
@MainActor
final class JSONSessionOutput: SessionOutput {
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
