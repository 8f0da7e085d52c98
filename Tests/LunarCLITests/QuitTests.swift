import Foundation
import Testing

/// `:quit` leaves at once, cancelling running effects; the end of piped input waits for them.
@Suite struct QuitTests {
  @Test func quitInScriptedInputCancelsRunningEffectsInsteadOfWaitingForThem() async throws {
    // NB: the timer never ends by itself: waiting for it would take the whole --timeout.
    let output = try await Lunar.run(["run", "examples/counter", "--timeout", "30"], input: "toggleTimer\n:quit\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("note").map { $0.string("message") } == ["stopping: the effects of 1 action(s) cancelled"], "\(output)")
    #expect(output.events.named("action").map(\.actionType) == ["toggleTimer"], "\(output)")
  }

  @Test func theEndOfScriptedInputStillWaitsForRunningEffects() async throws {
    let output = try await Lunar.run(["run", "examples/counter", "--timeout", "2"], input: "toggleTimer\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("action").first?.actionType == "toggleTimer", "\(output)")
    #expect(output.events.named("note").map { $0.string("message") } == ["1 effect(s) still running after 2.0s; stopping"], "\(output)")
  }
}
