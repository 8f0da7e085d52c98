import LuaBridge
import Testing

@testable import LunarDevtools

/// A host that keeps a counter's state and notes what the hub asks of it.
@MainActor
final class CounterHost: DevtoolsHost {
  var state: LuaValue = ["count": 0]
  var observing: DevtoolsHub?
  var observeCalls = 0
  var dispatched: [String] = []

  func snapshot() -> (state: LuaValue, view: String?) { (state, "count: \(state[LuaString("count")])") }
  func dispatch(_ text: String) throws { dispatched.append(text) }
  func resume(_ state: LuaValue) { self.state = state }
  func render(_ state: LuaValue) -> String? { "count: \(state[LuaString("count")])" }
  func exportTest(recording: String) throws -> String { recording }
  var sessions: [String] { [] }
  func observe(_ hub: DevtoolsHub?) {
    observeCalls += 1
    observing = hub
  }
}

/// Reads every message sent so far to a page.
func messages(_ stream: AsyncStream<String>, count: Int) async -> [LuaValue] {
  var result: [LuaValue] = []
  for await text in stream {
    let message = try! LuaJSONDecoder().decode(text)
    // NB: what the hub broadcasts comes in batches (arrays); its answers one by one.
    result += message.arrayValue ?? [message]
    if result.count >= count { break }
  }
  return result
}

@MainActor
@Suite struct DevtoolsHubTests {
  @Test func theSessionIsObservedOnlyWhileAPageIsConnected() {
    let host = CounterHost()
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.host = host
    #expect(host.observing == nil)
    let first = hub.connect()
    let second = hub.connect()
    #expect(host.observing === hub)
    #expect(host.observeCalls == 1)
    hub.disconnect(first.client)
    #expect(host.observing === hub)
    hub.disconnect(second.client)
    #expect(host.observing == nil)
  }

  @Test func aPageConnectingSeesTheStateOfThatMoment() {
    let host = CounterHost()
    host.state = ["count": 7]
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.host = host
    _ = hub.connect()
    #expect(hub.entries.map(\.source) == [.connected])
    #expect(hub.entries.first?.state == ["count": 7])
  }

  @Test func entriesReachThePageWithoutTheirState() async {
    let hub = DevtoolsHub(feature: "counter.lua")
    let page = hub.connect()
    hub.record(.input, action: ["type": "increment"], state: ["count": 1, "secret": "big state"], view: nil)
    let received = await messages(page.messages, count: 2)
    #expect(received[1][LuaString("type")] == "entry")
    #expect(received[1][LuaString("action")] == ["type": "increment"])
    #expect(received[1][LuaString("state")] == .nil)
  }

  @Test func selectingAnEntrySendsItsStateViewAndDiff() async {
    let host = CounterHost()
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.host = host
    let page = hub.connect()
    hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: "count: 1")
    hub.receive(#"{"type":"select","id":2}"#, from: page.client)
    let received = await messages(page.messages, count: 4)
    let detail = received[3]
    #expect(detail[LuaString("type")] == "detail")
    #expect(detail[LuaString("state")] == ["count": 1])
    #expect(detail[LuaString("view")] == "count: 1")
    let diff = detail[LuaString("diff")].stringValue ?? ""
    #expect(diff == "  {\n-   count = 0,\n+   count = 1,\n  }")
  }

  @Test func resumingPutsTheHostBackInTheEntrysState() {
    let host = CounterHost()
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.host = host
    let page = hub.connect()
    hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: nil)
    hub.record(.input, action: ["type": "increment"], state: ["count": 2], view: nil)
    hub.receive(#"{"type":"resume","id":2}"#, from: page.client)
    #expect(host.state == ["count": 1])
  }

  @Test func anActionDispatchedFromThePageGoesToTheHost() {
    let host = CounterHost()
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.host = host
    let page = hub.connect()
    hub.receive(#"{"type":"dispatch","action":"add title=milk"}"#, from: page.client)
    #expect(host.dispatched == ["add title=milk"])
  }

  @Test func anExportedSessionImportsBackWithItsStates() throws {
    let hub = DevtoolsHub(feature: "counter.lua")
    hub.record(.connected, action: nil, state: ["count": 0], view: nil)
    hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: nil)
    hub.record(.effect, action: ["type": "tick"], state: ["count": 2], view: nil)
    let recording = DevtoolsRecording.write(hub)
    #expect(recording.hasPrefix(#"{"clients":[],"feature":"counter.lua","kind":"session","seed":0,"state":{"count":0},"version":2}"#))
    #expect(recording.contains(#""action":{"type":"tick"},"kind":"effectAction""#))

    let other = DevtoolsHub(feature: "counter.lua")
    let count = try DevtoolsRecording.read(recording, into: other)
    #expect(count == 2)
    #expect(other.entries.map(\.source) == [.imported, .imported, .imported])
    #expect(other.entries.map(\.state) == [["count": 0], ["count": 1], ["count": 2]])
  }
}
