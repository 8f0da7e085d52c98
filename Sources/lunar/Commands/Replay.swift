import ArgumentParser
import Foundation
import IssueReporting
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// `lunar replay FILE`: runs a recorded session again and checks that it reaches the same states;
/// `--as-test` writes it as a test instead.
struct Replay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replay a session recorded with `lunar run --record FILE`, or write it as a test.",
    usage: "lunar replay [<options>] <file>",
    discussion: """
      Runs the feature again from the recorded starting state (shared values included), sends the \
      recorded actions, answers every dependency call with the recorded result, and checks that \
      every action (typed, or sent by an effect) comes in the recorded order and leads to the \
      recorded state. Nothing live is reached: no network, no storage, no shared file. Prints one \
      line when all is the same; exits 1 at the first divergence, showing the diff.

      Actions that effects sent keep their recorded place relative to the input: before each input \
      action, replay waits (at most --timeout seconds) until effects have sent as many actions as \
      they had at that point of the recording.

      With --as-test, writes the session as an exhaustive test instead: every send, receive and \
      state change asserted, the time between them on the test clock, and every dependency \
      result as a mock. It passes at once under `lunar test`, and fails when the feature changes \
      what it does. Record a bug at the prompt, get its regression test:
        lunar run examples/todos --record bug.jsonl
        lunar replay bug.jsonl --as-test           writes examples/todos/bug_test.lua
        lunar test examples/todos
      """
  )

  @Argument(help: "A recording written by lunar run --record.")
  var file: String

  @OptionGroup var format: JSONOption

  @Flag(help: "Write the session as a *_test.lua instead of replaying it.")
  var asTest = false

  @Option(name: .customLong("output"), help: ArgumentHelp(
    "Where --as-test writes the test (default: <recording name>_test.lua in the feature's folder; - for standard output).",
    valueName: "file"))
  var testFile: String?

  @Flag(help: "Let --as-test replace a file that exists.")
  var force = false

  @OptionGroup var waiting: TimeoutOption

  @OptionGroup(title: "Limits")
  var limits: HostLimitOptions

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  func validate() throws {
    if testFile != nil, !asTest { throw ValidationError("--output goes with --as-test") }
  }

  @MainActor
  func run() async throws {
    let recording = try Recording(contentsOf: file)
    let location = try FeatureLocation(resolving: recording.feature)
    if asTest { return try writeTest(recording, location: location) }
    let live = HostDependencies.dependencies(mode: .offline, root: location.root)
    let (dependencies, queue) = recording.replaying(live.names, kinds: live)
    // NB: shared values and storage start from the recording, never from the user's files, and
    //     are never written there: the feature's data is kept in memory.
    let name = location.root.standardizedFileURL.lastPathComponent
    let data = LuaFeatureData(
      folder: URL(fileURLWithPath: "/replay").appendingPathComponent(name), fileStorage: .inMemory(),
      quota: LuaDataQuota(limit: nil, owner: "feature \(name)"))
    let host = PluginHost(limits: limits.limits, randomSeed: recording.seed) { _ in dependencies }
    host.onEvent = { _ in }
    let plugin: Plugin
    do {
      plugin = try host.load(feature: location, data: data)
    } catch {
      throw error.featureError ?? error
    }
    let output: SessionOutput = format.json ? JSONSessionOutput() : QuietSessionOutput()
    let issues = RunIssueReporter(output: output)
    IssueReporters.current = [issues]
    let session = RunSession(
      host: host, plugin: plugin, output: output, keepGoing: true, recorder: nil, issues: issues,
      initialState: recording.initialState.map(plugin.feature.initialState(startingFrom:))
    )
    let check = ReplayCheck(recording: recording)
    session.onReduce = { action, fromInput, state in
      check.reduced(action, fromInput: fromInput, state: state)
      queue.reduced(check.reduced)
    }
    session.start()
    let inputs = recording.inputs
    let progress = ProgressLine("replaying", total: inputs.count, unit: "actions")
    for (index, input) in inputs.enumerated() {
      progress.update(index + 1)
      // NB: Waiting only as long as the recording did keeps the recorded interleaving: an input
      //     action that came before an effect's answer in the recording comes before it here too.
      await session.waitForEffectActions(input.effectActionsBefore, timeout: .seconds(waiting.timeout))
      if let divergence = check.divergence {
        progress.finish()
        return try report(divergence, output)
      }
      _ = session.send(input.action)
    }
    await session.waitForEffectActions(recording.effectActions, timeout: .seconds(waiting.timeout))
    progress.finish()
    if let divergence = check.divergence ?? check.missing(overdrawn: queue.overdrawn, timeout: waiting.timeout) {
      return try report(divergence, output)
    }
    let errors = session.errors
    if recording.version >= 2, errors != recording.errors {
      let shown = (output as? QuietSessionOutput)?.errors.joined(separator: "\n") ?? ""
      return try report(
        ReplayDivergence(
          message: "the recording shows \(recording.errors) error(s), the replay \(errors)\(shown.isEmpty ? "" : ":\n" + shown)"),
        output)
    }
    let fromEffects = recording.effectActions
    let typed = recording.steps.count - fromEffects
    let summary = "replayed \(typed) action\(typed == 1 ? "" : "s")"
      + (fromEffects > 0 ? " and \(fromEffects) from effects" : "") + ": same states"
    if format.json { output.note(summary) } else { print(summary) }
    if recording.version < 2, session.hadErrors { throw ExitCode(1) }
  }

  @MainActor
  private func report(_ divergence: ReplayDivergence, _ output: SessionOutput) throws {
    let text = "replay diverged\(divergence.message.hasPrefix("at ") ? " " : ": ")\(divergence.message)"
    if let json = output as? JSONSessionOutput {
      json.emit(.divergence(message: text, step: divergence.step))
    } else {
      print(text)
    }
    throw ExitCode(1)
  }

  @MainActor
  private func writeTest(_ recording: Recording, location: FeatureLocation) throws {
    let module = location.script.deletingPathExtension().lastPathComponent
    let text = try RecordingTestWriter(recording: recording, module: module, recordingName: file).luaTest()
    if testFile == "-" {
      print(text, terminator: "")
      return
    }
    let stem = URL(fileURLWithPath: file).lastPathComponent.split(separator: ".").first.map(String.init) ?? "session"
    let target = testFile.map { URL(fileURLWithPath: $0) }
      ?? location.root.appendingPathComponent("\(stem.replacingOccurrences(of: "-", with: "_"))_test.lua")
    guard target.lastPathComponent.hasSuffix("_test.lua") else {
      throw ValidationError("\(target.path): a test file's name ends in _test.lua, or lunar test does not find it")
    }
    if !force, FileManager.default.fileExists(atPath: target.path) {
      throw ValidationError("\(target.path) exists: choose another with --output, or replace it with --force")
    }
    do {
      try Data(text.utf8).write(to: target)
    } catch {
      throw RecordError("cannot write \(target.path): \(error.localizedDescription)")
    }
    let sends = recording.steps.count { $0.fromInput }
    let shown = Self.relative(target)
    print("wrote \(shown): \(sends) send(s), \(recording.steps.count - sends) receive(s); run it with lunar test \(shown)")
  }

  /// `url`'s path from the current folder when it is inside it (`examples/counter/bug_test.lua`).
  private static func relative(_ url: URL) -> String {
    let current = FileManager.default.currentDirectoryPath
    let path = url.standardizedFileURL.path
    return path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
  }
}
