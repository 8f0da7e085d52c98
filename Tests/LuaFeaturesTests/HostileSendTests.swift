import Composable
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// An effect's `send` belongs to that effect while it runs: kept past its end and called from
/// another effect, it raises in that effect instead of delivering.
@MainActor
struct HostileSendTests {
  @Test func aSendKeptPastItsEffectRaisesInAnotherEffect() async throws {
    let file = "kept_send.lua"
    let source = try HostileStateTests.source(file)
    let harness = try FeatureHarness()
    let feature = try harness.load(source, chunkName: file)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    await store.send(["type": "keep"]).finish()
    #expect(harness.errors.isEmpty)

    await store.send(["type": "useKept"]).finish()

    let keeper = try #require(line(of: "-- keeper", in: source))
    let at = try #require(line(of: "-- kept send", in: source))
    let errors = harness.takeErrors()
    #expect(errors.map(\.kind) == [.effect])
    #expect(errors.map(\.message) == [
      "\(file):\(at): send must be called from the effect's own function (started at \(file):\(keeper)), "
        + "not from a nested coroutine, another effect or after the effect ended"
    ])
    // NB: neither the kept send's action nor what the raising effect sent after it arrived.
    #expect(store.state.value == ["late": false, "own": false])
    #expect(reducer.liveCoroutines == 0)
  }
}

/// An action JSON cannot hold, sent by an effect, is refused where it is sent (its events and
/// recordings are JSON), naming the field and the line; nothing is reduced.
@MainActor
struct HostileUnwritableActionTests {
  static let file = "unwritable_actions.lua"

  @Test func anEffectSendingNaNIsRefusedAndItsNextSendArrives() async throws {
    let source = try HostileStateTests.source(Self.file)
    let harness = try FeatureHarness()
    let feature = try harness.load(source, chunkName: Self.file)
    let store = makeStore(feature.reducer(), state: feature.initialState)

    await store.send(["type": "runNaN"]).finish()

    let start = try #require(line(of: "fx.run(function(send)", in: source))
    let errors = harness.takeErrors()
    #expect(errors.map(\.kind) == [.effect])
    #expect(errors.map(\.message) == [
      "\(Self.file):\(start): the action cannot be written as JSON: action.n: NaN (not a number) is not a JSON number"
    ])
    #expect(store.state.value == ["got": false, "own": true, "asked": 0])
  }

  @Test func anEffectSendingBytesThatAreNotUTF8FailsItsActionAndLeavesStateAsItWas() async throws {
    let source = try HostileStateTests.source(Self.file)
    let harness = try FeatureHarness()
    let feature = try harness.load(source, chunkName: Self.file)
    let store = makeStore(feature.reducer(), state: feature.initialState)

    await store.send(["type": "sendBinary"]).finish()

    let at = try #require(line(of: "-- refused: not UTF-8", in: source))
    let errors = harness.takeErrors()
    #expect(errors.map(\.kind) == [.malformedEffect])
    #expect(errors.map(\.message) == [
      "\(Self.file):\(at): the action cannot be written as JSON: action.note: not valid UTF-8 at byte 3 (0xE9); "
        + "JSON text must be UTF-8"
    ])
    #expect(store.state.value == ["got": false, "own": false, "asked": 0])
  }
}
