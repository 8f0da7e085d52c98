import Composable
import LuaBridge
import LuaFeatures
import Testing

@MainActor
struct SmokeTests {
  @Test func aLuaCounterRunsInAStore() throws {
    let host = try LuaFeatureHost()
    let feature = try host.load(source: """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Counter",
        initial = { count = 0, items = {} },
        reduce = function(state, action)
          if action.type == "increment" then
            state.count = state.count + 1
          elseif action.type == "add" then
            state.items[#state.items + 1] = { title = action.title }
          end
        end,
      }
      """, chunkName: "counter.lua")
    let store = Store(initialState: feature.initialState) { feature.reducer() }
    store.send(["type": "increment"])
    store.send(["type": "increment"])
    store.send(["type": "add", "title": "milk"])
    store.send(["type": "add", "title": "eggs"])
    #expect(store.state.count == 2)
    #expect(store.state.value == ["count": 2, "items": [["title": "milk"], ["title": "eggs"]]])
  }
}
