import ArgumentParser
import CustomDump
import Foundation
import IssueReporting
import LuaBridge
import LuaFeatures

/// `lunar replay FILE`: runs a recorded session again and checks that it reaches the same states.
struct Replay: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Replay a session recorded with `lunar run --record FILE`.",
    discussion: """
      Sends the recorded actions to the feature again, answering every dependency call with the \
      recorded result instead of calling the real client, and checks that each action leads to the \
      recorded state. Exits 1 at the first divergence, showing the diff.

      Actions that effects sent are kept in their recorded order relative to the input: before \
      each input action, replay waits (at most --timeout seconds) until effects have sent as many \
      actions as they had at that point of the recording.
      """
  )

  @Argument(help: "A recording written by lunar run --record.")
  var file: String

  @Flag(help: "Write JSON events, one per line.")
  var json = false

  @Option(help: "Seconds to wait for effects to send the actions recorded before each input action.")
  var timeout: Double = 5

  @OptionGroup(title: "Limits")
  var limits: HostLimitOptions

  func validate() throws { try EffectTimeout.validate(timeout) }

  @MainActor
  func run() async throws {
    let recording = try Recording(contentsOf: file)
    let location = try FeatureLocation(resolving: recording.feature)
    let live = HostDependencies.dependencies(mode: .offline, root: location.root)
    let host = try LuaFeatureHost(
      limits: limits.limits, dependencies: recording.replaying(live.names, kinds: live), randomSeed: recording.seed
    )
    let feature = try host.load(location)
    let output: RunOutput = json ? JSONRunOutput() : TextRunOutput()
    let issues = RunIssueReporter(output: output)
    IssueReporters.current = [issues]
    let session = try RunSession(host: host, feature: feature, output: output, keepGoing: true, recorder: nil, issues: issues)
    session.start()
    for (index, step) in recording.steps.enumerated() {
      // NB: Waiting only as long as the recording did keeps the recorded interleaving: an input
      //     action that came before an effect's answer in the recording comes before it here too.
      await session.waitForEffectActions(step.effectActionsBefore, timeout: .seconds(timeout))
      _ = session.send(step.action)
      if let expected = step.state, !Recording.sameThroughJSON(expected, session.store.state.value) {
        let difference = diff(LuaState(expected), session.store.state) ?? ""
        output.note("replay diverged at action \(index + 1) (\(step.action)):\n\(difference)")
        throw ExitCode(1)
      }
    }
    await session.waitForEffectActions(recording.effectActions, timeout: .seconds(timeout))
    output.note("replayed \(recording.steps.count) actions: same states")
    if session.hadErrors { throw ExitCode(1) }
  }
}
