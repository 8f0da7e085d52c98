import Foundation

/// A line on standard error that shows how far a long command has got — `replaying 1200/5000
/// actions (24%)` — redrawn in place at most ten times a second, and erased when done.
///
/// It shows only when standard error is a terminal: in a pipe or a file it writes nothing, so logs
/// and scripts see only the command's own output.
///
/// ```swift
/// let progress = ProgressLine("replaying", total: steps.count, unit: "actions")
/// for (index, step) in steps.enumerated() {
///   progress.update(index + 1)
///   …
/// }
/// progress.finish()
/// ```
///
/// > Important: Call ``finish()`` before printing the command's result, or the result is written
/// > after the progress text on the same line.
public final class ProgressLine {
  public let title: String
  public let total: Int?
  public let unit: String
  /// Whether anything is drawn: by default, when standard error is a terminal.
  public let isShown: Bool
  private var lastDraw: ContinuousClock.Instant?
  private var drawn = false
  /// How often the line is redrawn at most.
  public static let interval: Duration = .milliseconds(100)

  public init(_ title: String, total: Int? = nil, unit: String = "", shown: Bool? = nil) {
    self.title = title
    self.total = total
    self.unit = unit
    self.isShown = shown ?? Terminal.isTerminal(STDERR_FILENO)
  }

  /// Notes that `done` items are done; redraws when the last draw is old enough (or it is the last).
  public func update(_ done: Int) {
    guard isShown else { return }
    let now = ContinuousClock.now
    if let lastDraw, now - lastDraw < Self.interval, done != total { return }
    lastDraw = now
    draw(text(done))
  }

  /// The line as it reads for `done` items.
  public func text(_ done: Int) -> String {
    let unit = self.unit.isEmpty ? "" : " \(self.unit)"
    guard let total, total > 0 else { return "\(title) \(done)\(unit)" }
    return "\(title) \(done)/\(total)\(unit) (\(done * 100 / total)%)"
  }

  /// Erases the line, leaving the terminal as it was.
  public func finish() {
    guard isShown, drawn else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    drawn = false
  }

  private func draw(_ text: String) {
    drawn = true
    FileHandle.standardError.write(Data(("\r\u{1B}[2K" + Terminal.standardError.dim(text)).utf8))
  }
}
