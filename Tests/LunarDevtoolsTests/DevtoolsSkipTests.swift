import LuaBridge
import Testing

@testable import LunarDevtools

/// A counter's host that also reduces (`increment`, `add n=…`) and takes a state put in its store,
/// as `lunar run` does: the hub can skip its actions.
@MainActor
final class ReducingHost: DevtoolsHost {
  var state: LuaValue = ["count": 0]
  var reduced: [LuaValue] = []
  var replaced: [LuaValue] = []

  func snapshot() -> (state: LuaValue, view: String?) { (state, nil) }
  func dispatch(_ text: String) throws {}
  func resume(_ state: LuaValue) { self.state = state }
  func render(_ state: LuaValue) -> String? { "count: \(state[LuaString("count")].integerValue ?? -1)" }
  func exportTest(recording: String) throws -> String { recording }
  var sessions: [String] { [] }
  func observe(_ hub: DevtoolsHub?) {}

  func reduce(_ state: LuaValue, _ action: LuaValue) throws -> LuaValue {
    reduced.append(action)
    let count = state[LuaString("count")].integerValue ?? 0
    let add = action[LuaString("type")] == "add" ? action[LuaString("n")].integerValue ?? 0 : 1
    return ["count": .integer(count + add)]
  }

  func replaceState(_ state: LuaValue) throws {
    replaced.append(state)
    self.state = state
  }
}

/// A hub observing `host` from the start, with: #1 started (0), #2 input increment (1), #3 an
/// effect's `add n=10` (11), #4 input increment (12). A page connecting gets `hello`, the four
/// entries and the `sent` event of the effect's action.
@MainActor
func counterSession(_ host: some DevtoolsHost) -> DevtoolsHub {
  let hub = DevtoolsHub(feature: "counter.lua")
  hub.host = host
  hub.observeFromStart()
  hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: nil)
  hub.record(.effect, action: ["type": "add", "n": 10], state: ["count": 11], view: nil)
  hub.record(.input, action: ["type": "increment"], state: ["count": 12], view: nil)
  return hub
}

@MainActor
@Suite struct DevtoolsSkipTests {
  @Test func skippingAnActionRecomputesTheStatesAfterItAndPutsTheStoreInTheLast() {
    let host = ReducingHost()
    let hub = counterSession(host)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":2}"#, from: page.client)
    #expect(hub.entries.map(\.state) == [["count": 0], ["count": 0], ["count": 10], ["count": 11]])
    #expect(hub.entries.map(\.skipped) == [false, true, false, false])
    #expect(hub.entries.map(\.recomputed) == [false, true, true, true])
    // NB: the skipped action is not reduced; the effect's action is, where it was recorded.
    #expect(host.reduced == [["type": "add", "n": 10], ["type": "increment"]])
    #expect(host.replaced == [["count": 11]])
    #expect(host.state == ["count": 11])
  }

  @Test func unskippingPutsTheActionBackAndRecomputesAgain() {
    let host = ReducingHost()
    let hub = counterSession(host)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":3}"#, from: page.client)
    #expect(hub.entries.map(\.state) == [["count": 0], ["count": 1], ["count": 1], ["count": 2]])
    hub.receive(#"{"type":"unskip","id":3}"#, from: page.client)
    #expect(hub.entries.map(\.state) == [["count": 0], ["count": 1], ["count": 11], ["count": 12]])
    #expect(hub.entries.map(\.skipped) == [false, false, false, false])
    #expect(host.state == ["count": 12])
  }

  @Test func pagesAreToldWhichEntriesAreSkippedAndSeeTheRecomputedState() async {
    let host = ReducingHost()
    let hub = counterSession(host)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":2}"#, from: page.client)
    hub.receive(#"{"type":"select","id":4}"#, from: page.client)
    let received = await messages(page.messages, count: 8).filter { $0[LuaString("type")] != "effect" }
    #expect(received[5] == ["type": "skipped", "ids": [2], "from": 2])
    #expect(received[6][LuaString("type")] == "detail")
    #expect(received[6][LuaString("state")] == ["count": 11])
    #expect(received[6][LuaString("before")] == ["count": 10])
    // NB: the view of a recomputed state is rendered again, not the one recorded.
    #expect(received[6][LuaString("view")] == "count: 11")
  }

  @Test func aResumeInTheLogStopsTheRecomputationThere() {
    let host = ReducingHost()
    let hub = counterSession(host)
    hub.record(.devtools, action: nil, state: ["count": 5], view: nil, note: "resumed from an earlier state")
    hub.record(.input, action: ["type": "increment"], state: ["count": 6], view: nil)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":2}"#, from: page.client)
    #expect(hub.entries.map(\.state) == [["count": 0], ["count": 0], ["count": 10], ["count": 11], ["count": 5], ["count": 6]])
    #expect(host.replaced == [])
  }

  @Test func aHostThatCannotRecomputeRefusesTheSkipAndNothingChanges() async {
    let host = CounterHost()
    let hub = counterSession(host)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":2}"#, from: page.client)
    let received = await messages(page.messages, count: 7).filter { $0[LuaString("type")] != "effect" }
    #expect(received[5] == [
      "type": "notice", "error": true,
      "message": "cannot skip #2: this session cannot recompute its states, so it cannot skip an action",
    ])
    #expect(hub.entries.map(\.state) == [["count": 0], ["count": 1], ["count": 11], ["count": 12]])
    #expect(hub.entries.map(\.skipped) == [false, false, false, false])
  }

  @Test func onlyAnActionCanBeSkipped() async {
    let host = ReducingHost()
    let hub = counterSession(host)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":1}"#, from: page.client)
    hub.receive(#"{"type":"unskip","id":99}"#, from: page.client)
    let received = await messages(page.messages, count: 8).filter { $0[LuaString("type")] != "effect" }
    #expect(received[5][LuaString("message")] == "cannot skip #1: entry #1 is not an action the session reduced (started)")
    #expect(received[6][LuaString("message")] == "cannot unskip #99: entry #99 is no longer kept")
    #expect(host.reduced == [])
  }

  @Test func anExportedSessionLeavesTheSkippedActionOut() {
    let host = ReducingHost()
    let hub = counterSession(host)
    let page = hub.connect()
    hub.receive(#"{"type":"skip","id":2}"#, from: page.client)
    let lines = DevtoolsRecording.write(hub).split(separator: "\n").dropFirst().dropLast()
    #expect(lines == [
      #"{"action":{"n":10,"type":"add"},"kind":"effectAction","t":\#(seconds(hub.entries[2].time))}"#,
      #"{"kind":"state","state":{"count":10}}"#,
      #"{"action":{"type":"increment"},"kind":"action","t":\#(seconds(hub.entries[3].time))}"#,
      #"{"kind":"state","state":{"count":11}}"#,
    ])
    #expect(host.state == ["count": 11])
  }

  private func seconds(_ milliseconds: Double) -> String {
    (try? LuaJSONEncoder().encodeText(.number((milliseconds * 1000).rounded() / 1e6))) ?? "?"
  }
}

@MainActor
@Suite struct DevtoolsHistoryFromStartTests {
  @Test func aHubObservingFromTheStartKeepsActionsBeforeAnyPageConnects() async {
    let host = CounterHost()
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.host = host
    hub.observeFromStart()
    #expect(host.observing === hub)
    #expect(hub.isObserved)
    hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: nil)
    let page = hub.connect()
    let received = await messages(page.messages, count: 3)
    #expect(received.map { $0[LuaString("type")] } == ["hello", "entry", "entry"])
    #expect(received[1][LuaString("source")] == "started")
    #expect(received[1][LuaString("note")] == "the session started")
    #expect(received[2][LuaString("action")] == ["type": "increment"])
    // NB: nothing was missed, so no `connected` entry; the last page leaving keeps the hook.
    #expect(hub.entries.map(\.source) == [.started, .input])
    hub.disconnect(page.client)
    #expect(host.observing === hub)
    #expect(host.observeCalls == 1)
  }

  @Test func theHistoryFromTheStartIsBounded() {
    let host = CounterHost()
    let hub = DevtoolsHub(feature: "counter.lua", historyLimit: 3)
    hub.host = host
    hub.observeFromStart()
    for count in 1...5 { hub.record(.input, action: ["type": "increment"], state: ["count": .integer(Int64(count))], view: nil) }
    #expect(hub.entries.map(\.id) == [4, 5, 6])
    #expect(host.observing === hub)
  }
}
