import ArgumentParser
import LuaBridge
import LunarHostSupport

/// How much of each action text output shows (`lunar run` at a terminal).
enum OutputMode: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// Each action in full (within the limits), except an action effects send again within a second
  /// of the last one of its type (a timer's tick), which takes one line.
  case auto
  /// One line per action: the action, then what it changed (`⇠ tick  count = 3`).
  case compact
  /// Each action in full (within the limits): the action, the state's diff, the view.
  case full
}

/// `--output`, `--depth`, `--lines`: how much text output shows of each action.
struct OutputOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "At a terminal: compact (one line per action, with what it changed), full (the action, the state's diff and the view), or auto (full, but one line for an action effects send again within a second).",
    valueName: "mode"))
  var output: OutputMode = .auto

  @Option(help: ArgumentHelp("At a terminal: how deep tables are shown in actions and states (deeper ones show as {…}).", valueName: "levels"))
  var depth = 4

  @Option(help: ArgumentHelp("At a terminal: how many lines a state, a diff or a view shows (:expand shows the last one whole).", valueName: "count"))
  var lines = 40

  func validate() throws {
    guard depth >= 1 else { throw ValidationError("--depth must be 1 or more, got \(depth)") }
    guard lines >= 1 else { throw ValidationError("--lines must be 1 or more, got \(lines)") }
  }

  /// The display these options choose.
  var display: TextDisplay { TextDisplay(mode: output, depth: depth, lines: lines) }
}

/// What text output shows of each action, and how much of it.
struct TextDisplay: Sendable {
  var mode: OutputMode
  /// How deep tables are shown in actions and states.
  var depth: Int?
  /// How many lines a state, a diff or a view shows.
  var lines: Int?
  /// How many characters a line shows.
  var width: Int? = 200

  /// Everything, whole (`:expand`).
  static let whole = TextDisplay(mode: .full, depth: nil, lines: nil, width: nil)
  /// What `lunar host` shows of its plugins, and `lunar run` without options.
  static let standard = TextDisplay(mode: .auto, depth: 4, lines: 40)

  /// How values are written on one line within these limits (actions, compact changes).
  var values: ValueText { ValueText(depth: depth, length: width) }
  /// How states and diffs are written within these limits.
  var notation: LuaNotation { LuaNotation(depth: depth, width: LuaNotation.block.width) }

  /// `text` cut to ``lines`` lines of at most ``width`` characters; the second value says whether
  /// something was cut.
  func clipped(_ text: String) -> (String, Bool) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var cut = false
    if let limit = self.lines, lines.count > limit {
      let hidden = lines.count - limit
      lines = Array(lines.prefix(limit)) + ["… \(hidden) more line(s) (:expand shows them)"]
      cut = true
    }
    if let width {
      let values = ValueText(depth: nil, length: width)
      lines = lines.map { line in
        let short = values.cut(line)
        if short.count < line.count { cut = true }
        return short
      }
    }
    return (lines.joined(separator: "\n"), cut)
  }
}
