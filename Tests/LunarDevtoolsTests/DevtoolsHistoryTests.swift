import LuaBridge
import Testing

@testable import LunarDevtools

@MainActor
@Suite struct DevtoolsHistoryTests {
  @Test func theLogKeepsOnlyTheLatestEntries() {
    let hub = DevtoolsHub(feature: "counter.lua", historyLimit: 3)
    for count in 1...5 {
      hub.record(.input, action: ["type": "increment"], state: ["count": .integer(Int64(count))], view: nil)
    }
    #expect(hub.entries.map(\.id) == [3, 4, 5])
    #expect(hub.entries.map { $0.state[LuaString("count")] } == [3, 4, 5])
  }

  @Test func anIdAtEitherEndOfTheIntegersNamesNoEntry() {
    let hub = DevtoolsHub(feature: "counter.lua", historyLimit: 3)
    for count in 1...5 {
      hub.record(.input, action: ["type": "increment"], state: ["count": .integer(Int64(count))], view: nil)
    }
    for id in [Int.min, Int.min + 1, -1, 0, 2, 6, Int.max] {
      #expect(hub.history[id: id] == nil, "\(id)")
      #expect(hub.history.previous(of: id) == nil, "\(id)")
    }
    #expect(hub.history[id: 3]?.state == ["count": 3])
    #expect(hub.history.previous(of: 4)?.id == 3)
  }
}
