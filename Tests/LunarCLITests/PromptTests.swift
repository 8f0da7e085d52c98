import Foundation
import TestSupport
import Testing

/// `lunar run` and `lunar host` at a terminal: a line editor with history, what effects print
/// shown above the line being typed, and leaving at once.
@Suite(.enabled(if: PTY.available, "needs python3 to provide a terminal"))
struct PromptTests {
  @Test func upArrowRecallsThePreviousLine() async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let result = try await PTY.run(["run", "examples/counter"], state: state, steps: [
      .expect("timer: off"),
      .send("increment\r"), .expect("+   count = 1,"),
      .send("\u{1B}[A\r"), .expect("+   count = 2,"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(result.status == 0, "\(result)")
  }

  @Test func ctrlLClearsTheScreenAndStaysOutOfTheAction() async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let result = try await PTY.run(["run", "examples/counter"], state: state, steps: [
      .expect("timer: off"),
      .send("incre"), .expect("incre"),
      .send("\u{0C}"), .expect("\u{1B}[2J"),
      .send("ment\r"), .expect("→ increment"), .expect("+   count = 1,"),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(!result.transcript.contains("error"), "\(result)")
  }

  @Test func anEffectsOutputWhileTypingShowsAboveAndLeavesTheTypedTextIntact() async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    // NB: the timer ticks every second; its tick arrives while `factLoaded fact=mi` is half typed.
    let result = try await PTY.run(["run", "examples/counter"], state: state, steps: [
      .expect("timer: off"),
      .send("toggleTimer\r"), .expect("effect of toggleTimer started"),
      .send("factLoaded fact=mi"), .expect("factLoaded fact=mi"),
      .expect("⇠ tick"), .expect("+   count = 1,"),
      .expect("> factLoaded fact=mi"),
      .send("lk\r"), .expect("→ factLoaded fact=\"milk\""),
      .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    let tick = try #require(result.transcript.range(of: "⇠ tick"))
    let typed = try #require(result.transcript.range(of: "> factLoaded fact=mi", range: tick.upperBound..<result.transcript.endIndex))
    let between = result.transcript[tick.upperBound..<typed.lowerBound]
    #expect(!between.contains("factLoaded fact"), "the line being typed is drawn once, below the tick\n\(result)")
  }

  @Test func historyIsKeptBetweenRunsOfTheSameFeature() async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let first = try await PTY.run(["run", "examples/counter"], state: state, steps: [
      .expect("timer: off"), .send("increment\r"), .expect("+   count = 1,"), .send(":quit\r"), .exit(10),
    ])
    #expect(first.ok, "\(first)")

    let second = try await PTY.run(["run", "examples/counter"], state: state, steps: [
      .expect("timer: off"), .send("\u{1B}[A\u{1B}[A\r"), .expect("+   count = 1,"), .send(":quit\r"), .exit(10),
    ])

    #expect(second.ok, "\(second)")
    let files = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("lunar/history").path)
    #expect(files == [Lunar.packageRoot.appendingPathComponent("examples/counter").standardizedFileURL.path.replacingOccurrences(of: "/", with: "%")])
  }

  @Test func aFeatureDeepInTheFileSystemStillKeepsItsHistory() async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let root = try makeTemporaryFolder()
    defer { removeTemporaryFolder(root) }
    // NB: the folder's path, written as one file name, is over the 255 bytes a name may hold.
    let deep = (1...6).reduce(root) { folder, n in folder.appendingPathComponent("level-\(n)-" + String(repeating: "x", count: 50)) }
    try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
    for file in try FileManager.default.contentsOfDirectory(atPath: "examples/counter") where file.hasSuffix(".lua") {
      try FileManager.default.copyItem(atPath: "examples/counter/" + file, toPath: deep.appendingPathComponent(file).path)
    }

    for _ in 1...2 {
      let run = try await PTY.run(["run", deep.path], state: state, steps: [
        .expect("timer: off"), .send("increment\r"), .expect("+   count = 1,"), .send(":quit\r"), .exit(10),
      ])
      #expect(run.ok, "\(run)")
    }

    let files = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("lunar/history").path)
    #expect(files.count == 1, "\(files)")
    #expect(files.allSatisfy { $0.utf8.count <= 200 }, "\(files)")
    let text = try String(contentsOf: state.appendingPathComponent("lunar/history/" + files[0]), encoding: .utf8)
    #expect(text.components(separatedBy: "increment").count - 1 == 2, "both runs' lines are kept\n\(text)")
  }

  @Test(arguments: [(":quit\r", "typing :quit"), ("\u{04}", "ctrl-D")])
  func leavingCancelsRunningEffectsAndExitsAtOnce(_ keys: String, _ name: String) async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    // NB: the timer never ends by itself; leaving used to wait --timeout (5 s) for it.
    let result = try await PTY.run(["run", "examples/counter"], state: state, steps: [
      .expect("timer: off"), .send("toggleTimer\r"), .expect("effect of toggleTimer started"),
      .mark("leave"), .send(keys), .exit(10),
    ])

    #expect(result.ok, "\(name): \(result)")
    #expect(result.status == 0, "\(name): \(result)")
    #expect(result.transcript.contains("stopping: the effects of 1 action(s) cancelled"), "\(name): \(result)")
    // NB: well under 100 ms when measured alone; generous here, where tests run side by side, and
    //     more so under a sanitizer.
    let seconds = try #require(result.exitAfter["leave"])
    #expect(seconds < Self.promptExit, "\(name): left after \(seconds) s")
  }

  @Test func theHostShellsPromptNamesThePluginInUse() async throws {
    let state = try makeTemporaryFolder()
    defer { removeTemporaryFolder(state) }
    let result = try await PTY.run(["host", "examples"], state: state, steps: [
      .expect(":help for commands"), .expect("counter> "),
      .send(":use dogs\r"), .expect("using dogs"), .expect("dogs> "),
      .send(":use counter\r"), .expect("counter> "),
      .send("increment\r"), .expect("+   count = 1,"),
      .send("\u{1B}[A\r"), .expect("+   count = 2,"),
      .mark("leave"), .send(":quit\r"), .exit(10),
    ])

    #expect(result.ok, "\(result)")
    #expect(result.status == 0, "\(result)")
    #expect(try #require(result.exitAfter["leave"]) < Self.promptExit, "\(result)")
  }

  /// How soon, in seconds, leaving must end the program.
  static var promptExit: Double { Sanitizer.isOn ? 5 : 1 }
}
