import LuaBridge
import LunarDevtools

extension FuzzTarget {
  /// A message from a devtools page (`{"type":"select","id":3}`, `{"type":"skip","id":2}`, an
  /// imported recording, …), handled by a hub that holds a few entries of a host that recomputes
  /// states, as a page's messages are.
  static let devtoolsMessage = FuzzTarget(name: "devtools-message", summary: "a message from a devtools page") { input in
    let hub = DevtoolsMessageTarget.hub
    let (client, _) = hub.connect()
    // NB: Disconnecting drops the replies, so memory stays flat over millions of inputs.
    defer { hub.disconnect(client) }
    hub.receive(String(decoding: input, as: UTF8.self), from: client)
  }
}

@MainActor
private enum DevtoolsMessageTarget {
  static let host = CounterHost()
  static let hub: DevtoolsHub = {
    let hub = DevtoolsHub(feature: "feature.lua", historyLimit: 8)
    hub.host = host
    hub.observeFromStart()
    hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: "1")
    hub.record(.input, action: ["type": "increment"], state: ["count": 2], view: "2")
    return hub
  }()
}

/// A counter whose every action counts one: enough for the hub to skip and recompute.
@MainActor
private final class CounterHost: DevtoolsHost {
  var state: LuaValue = ["count": 0]

  func snapshot() -> (state: LuaValue, view: String?) { (state, nil) }
  func dispatch(_ text: String) throws {}
  func resume(_ state: LuaValue) throws { self.state = state }
  func render(_ state: LuaValue) -> String? { nil }
  func exportTest(recording: String) throws -> String { "" }
  var sessions: [String] { [] }
  func observe(_ hub: DevtoolsHub?) {}
  func reduce(_ state: LuaValue, _ action: LuaValue) throws -> LuaValue {
    ["count": .integer((state[LuaString("count")].integerValue ?? 0) &+ 1)]
  }
  func replaceState(_ state: LuaValue) throws { self.state = state }
}
