import LuaBridge
import LuaFeatures

/// How a session shows what happens — `lunar run`'s, `lunar replay`'s, each plugin's of `lunar
/// host` (which adds the plugins' lifecycle, ``HostOutput``): JSON events, one per line, or text for
/// a person at a terminal.
@MainActor
protocol SessionOutput: AnyObject {
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

extension SessionOutput {
  /// The state after an action, its changes not known.
  func state(before: LuaState?, after: LuaState, view: String?) {
    state(before: before, after: after, changes: nil, view: view)
  }

  /// A feature's warning, after its `file:line`.
  func warning(_ warning: LuaFeatureWarning) {
    self.warning((warning.location.map { "\($0): " } ?? "") + warning.message)
  }
}
