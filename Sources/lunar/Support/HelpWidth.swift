import Foundation

/// The narrowest width `--help` is laid out at: 80 columns.
///
/// argument-parser fits help text to the terminal by breaking each line too long at its last space
/// and starting the rest at the left margin: in a terminal narrower than an example, the example
/// would print as two lines, the second one no command at all. The examples in Lunar's help fit
/// in 80 columns, so the help is never laid out narrower; a narrower terminal folds the long lines
/// itself, which keeps each example one line (copied whole).
enum HelpWidth {
  static let minimum = 80

  /// Widens the layout to ``minimum`` when the terminal, or `COLUMNS`, is narrower (argument-parser
  /// reads `COLUMNS` before asking the terminal).
  static func applyMinimum() {
    let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }
      ?? LineEditor.columns(of: STDOUT_FILENO)
    if columns < minimum { setenv("COLUMNS", String(minimum), 1) }
  }
}
