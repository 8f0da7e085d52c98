import LuaBridge
import LuaFeatures

/// Shows nothing while a feature runs and keeps its errors: `lunar replay` prints one line at
/// the end (the same states, or the first divergence), and the errors only when they differ from
/// the recording's.
@MainActor
final class QuietSessionOutput: SessionOutput {
  private(set) var hostErrors = 0
  /// The errors shown, as they would read at a terminal.
  private(set) var errors: [String] = []

  func ready(feature: String, state: LuaState, view: String?) {}
  func action(_ action: LuaValue, source: String) {}
  var showsView: Bool { false }
  var needsStateBefore: Bool { false }
  func state(before: LuaState?, after: LuaState, changes: [LuaStateChange]?, view: String?) {}
  func effect(_ status: String, for action: LuaValue, running: Int) {}
  func error(_ error: LuaFeatureError) { errors.append(error.description) }
  func inputError(_ message: String, line: String) { errors.append("error: \(message)") }

  func hostError(kind: String, message: String) {
    hostErrors += 1
    errors.append("error: \(message)")
  }

  func warning(_ message: String) {}
  func note(_ text: String) {}
  func printed(_ text: String) {}
}
