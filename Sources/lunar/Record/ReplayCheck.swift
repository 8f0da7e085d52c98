import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// Compares a replay with its recording, action by action: the same actions in the same order,
/// each leading to the recorded state. Keeps the first difference.
@MainActor
final class ReplayCheck {
  let recording: Recording
  /// How many actions the replay reduced so far.
  private(set) var reduced = 0
  /// The first difference found.
  private(set) var divergence: ReplayDivergence?

  init(recording: Recording) {
    self.recording = recording
  }

  /// Checks the next action the replay reduced, and the state after it.
  func reduced(_ action: LuaValue, fromInput: Bool, state: LuaState) {
    defer { reduced += 1 }
    guard divergence == nil else { return }
    let number = reduced + 1
    guard reduced < recording.steps.count else {
      divergence = ReplayDivergence(
        step: number, message: "at action \(number) (\(action)): the recording ends before it")
      return
    }
    let step = recording.steps[reduced]
    let source = fromInput ? "typed" : "from an effect"
    if step.fromInput != fromInput || !Recording.sameThroughJSON(step.action, action) {
      let expected = step.fromInput ? "typed" : "from an effect"
      divergence = ReplayDivergence(
        step: number,
        message: """
          at action \(number): the recording has \(step.action) (\(expected)), the replay \(action) (\(source))
          \(LuaNotation.block.diff(step.action, action) ?? "")
          """)
      return
    }
    if let expected = step.state, !Recording.sameThroughJSON(expected, state.value) {
      divergence = ReplayDivergence(
        step: number,
        message: "at action \(number) (\(action), \(source)):\n\(LuaNotation.block.diff(expected, state.value) ?? "")")
    }
  }

  /// The divergence of a replay that ended before every recorded action came.
  func missing(overdrawn: [String], timeout: Double) -> ReplayDivergence? {
    guard reduced < recording.steps.count else { return nil }
    let step = recording.steps[reduced]
    var message = "at action \(reduced + 1): the recording has \(step.action) (from an effect), which did not come within \(timeout)s"
    if let name = overdrawn.first {
      message += " (deps.\(name) was called more often than in the recording)"
    }
    return ReplayDivergence(step: reduced + 1, message: message)
  }
}

/// Where and how a replay differs from its recording.
struct ReplayDivergence {
  /// The action (counting from 1, typed and from effects) where it differs.
  var step: Int?
  var message: String
}
