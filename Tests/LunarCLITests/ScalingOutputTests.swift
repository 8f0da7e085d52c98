import Foundation
import TestSupport
import Testing

/// `lunar run` at a terminal when features get chatty, large or composed: one line per action,
/// muted types, limits with `:expand`, `:reset`, actions by path with Tab, ctrl-C.
@Suite(.enabled(if: PTY.available, "needs python3 to provide a terminal"))
struct ScalingOutputTests {
  func run(_ arguments: [String], _ steps: [PTY.Step]) async throws -> PTY.Result {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    return try await PTY.run(arguments, state: state, steps: steps)
  }

  @Test func compactOutputPrintsOneLinePerActionWithWhatChanged() async throws {
    let result = try await run(["run", "examples/counter", "--output", "compact"], [
      .expect("timer: off"),
      .send("increment\r"), .expect("→ increment  count = 1\r\n"),
      .send("factLoaded fact=milk\r"), .expect(#"→ factLoaded fact="milk"  fact = "milk""#),
      .send("decrement\r"), .expect("→ decrement  count = 0, fact = nil"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(!result.transcript.contains("  {\r\n-"), "no diff in compact mode\n\(result)")
  }

  @Test func aMutedTypeShowsNothingUntilUnmuted() async throws {
    let result = try await run(["run", "examples/counter"], [
      .expect("timer: off"),
      .send(":mute increment\r"), .expect("increment muted"),
      .send("increment\r"), .send(":state\r"), .expect("{ count = 1, loading = false, timerRunning = false }"),
      .send(":mute\r"), .expect("muted: increment"),
      .send(":unmute increment\r"), .expect("increment shown again"),
      .send("increment\r"), .expect("→ increment"), .expect("+   count = 2,"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(result.transcript.components(separatedBy: "→ increment").count == 2, "only the unmuted one shows\n\(result)")
  }

  @Test func theLineLimitCutsADiffAndExpandShowsItWhole() async throws {
    let result = try await run(["run", "examples/counter", "--lines", "2"], [
      .expect("timer: off"),
      .send("increment\r"), .expect("→ increment"), .expect("  {\r\n-   count = 0,\r\n… 4 more line(s) (:expand shows them)"),
      .send(":expand\r"), .expect("→ increment\r\n  {\r\n-   count = 0,\r\n+   count = 1,"), .expect("  timer: off"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
  }

  @Test func theDepthLimitShowsDeeperTablesAsAnEllipsis() async throws {
    let result = try await run(["run", "examples/dogs", "--depth", "1"], [
      .expect("type an action"),
      .send(#"dogs.breedsLoaded breeds={{name="hound", subBreeds={"afghan"}}}"# + "\r"),
      .expect("→ dogs.breedsLoaded breeds={…}"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
  }

  @Test func resetGoesBackToTheInitialState() async throws {
    let result = try await run(["run", "examples/counter"], [
      .expect("timer: off"),
      .send("increment\r"), .expect("+   count = 1,"),
      .send(":reset\r"), .expect("reset to the initial state"), .expect("-   count = 1,\r\n+   count = 0,"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
  }

  @Test func tabCompletesAChildsActionPathAndItsFields() async throws {
    let result = try await run(["run", "examples/dogs"], [
      .expect("type an action"),
      .send("dogs.breedT\t"), .expect("apped "),
      .send("br\t"), .expect("eed="),
      .send("hound\r"), .expect(#"→ dogs.breedTapped breed="hound""#),
      .send(":res\t"), .expect("et "),
      .send("\r"), .expect("reset to the initial state"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(result.transcript.contains("App  — type an action (dogs.onAppear, dogs.breedTapped breed=…,"), "\(result)")
  }

  @Test func ctrlCClearsTheLineAndTwiceOnAnEmptyLineLeaves() async throws {
    let result = try await run(["run", "examples/counter"], [
      .expect("timer: off"),
      .send("incre"), .expect("incre"),
      .send("\u{03}"), .send("decrement\r"), .expect("→ decrement"),
      .send("\u{03}"), .expect("(ctrl-C again, ctrl-D or :quit to leave)"),
      .send("\u{03}"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(result.status == 0, "\(result)")
    #expect(!result.transcript.contains("→ incredecrement"), "\(result)")
  }
}
