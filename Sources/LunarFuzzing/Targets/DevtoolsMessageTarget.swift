import LuaBridge
import LunarDevtools

extension FuzzTarget {
  /// A message from a devtools page (`{"type":"select","id":3}`, an imported recording, …), handled
  /// by a hub that holds a few entries, as a page's messages are.
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
  static let hub: DevtoolsHub = {
    let hub = DevtoolsHub(feature: "feature.lua", historyLimit: 8)
    hub.record(.input, action: ["type": "increment"], state: ["count": 1], view: "1")
    hub.record(.input, action: ["type": "increment"], state: ["count": 2], view: "2")
    return hub
  }()
}
