import Foundation

extension RunSession {
  /// Feeds the session lines of input until they end or the session stops.
  ///
  /// Then the running effects are cancelled when a person leaves (`:quit`, or ctrl-D at a
  /// terminal), and waited for (at most `timeout` seconds) when scripted input ends, so that a
  /// script sees what its last actions led to.
  ///
  /// - Parameters:
  ///   - scripted: Whether input is scripted (`--json`, or not a terminal).
  ///   - printsPrompt: Whether to print `> ` before each line (a terminal without the line editor).
  /// - Returns: How many effects were still running at the end (cancelled, or past `timeout`).
  @discardableResult
  func serve(
    _ lines: some AsyncSequence<StandardInput.Line, Never>, scripted: Bool, printsPrompt: Bool, timeout: Double
  ) async -> Int {
    if printsPrompt { Self.printPrompt() }
    var inputEnded = true
    for await input in lines {
      guard case let .text(line) = input else {
        if let problem = input.problem, !skip(problem) {
          inputEnded = false
          break
        }
        continue
      }
      // NB: `:wait` lets a script wait for running effects (a load) before its next action.
      if PromptCommand(typed: line.trimmingCharacters(in: .whitespaces), servedBy: .run) == .wait {
        let stillRunning = await settle(timeout: .seconds(timeout))
        if stillRunning > 0 { output.note("\(stillRunning) effect(s) still running after \(timeout)s") }
        if printsPrompt { Self.printPrompt() }
        continue
      }
      guard handle(line) else {
        inputEnded = false
        break
      }
      if printsPrompt {
        // NB: Give effects a moment so that what they do shows before the next prompt.
        _ = await settle(timeout: .milliseconds(50))
        Self.printPrompt()
      }
    }
    if quitRequested || (inputEnded && !scripted) {
      let stillRunning = effectsRunning
      let cancelled = cancelEffects()
      if cancelled > 0 { output.note("stopping: the effects of \(cancelled) action(s) cancelled") }
      return stillRunning
    }
    let stillRunning = await settle(timeout: .seconds(timeout))
    if stillRunning > 0 {
      output.note("\(stillRunning) effect(s) still running after \(timeout)s; stopping")
    }
    return stillRunning
  }

  private static func printPrompt() {
    print("> ", terminator: "")
    flushStandardOutput()
  }
}
