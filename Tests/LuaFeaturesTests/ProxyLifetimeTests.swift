import ComposableTesting
import LuaBridge
@testable import LuaFeatures
import Testing

/// The proxies a call hands out for nested tables live for that call only: a kept one is stale in
/// the next call however many the call made, and a call that read many tables leaves nothing of
/// them behind for the calls after it to carry.
@MainActor
struct ProxyLifetimeTests {
  static let rows = 20_000
  static let source = """
    local lunar = require "lunar"
    local kept
    local rows = {}
    for i = 1, \(rows) do rows[i] = { id = i, done = false } end

    return lunar.feature {
      name = "Rows",
      initial = { rows = rows, done = 0 },
      reduce = function(state, action)
        local t = action.type
        if t == "count" then
          local n = 0
          for i = 1, #state.rows do
            if state.rows[i].done then n = n + 1 end
          end
          state.done = n
        elseif t == "keep" then
          for i = 1, action.reading do local _ = state.rows[i].done end
          kept = state.rows[action.reading]
        elseif t == "useKept" then
          state.done = 1
          kept.done = true -- a row kept from an earlier action
        elseif t == "touch" then
          state.rows[1].done = not state.rows[1].done
        end
      end,
    }
    """

  let harness: FeatureHarness
  let feature: LuaFeature

  init() throws {
    harness = try FeatureHarness()
    feature = try harness.load(Self.source, chunkName: "rows.lua")
  }

  @Test(arguments: [3, 200])
  func aRowKeptFromAnEarlierActionIsStaleHoweverManyTheCallRead(reading: Int) async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    await store.send(["type": "keep", "reading": .integer(Int64(reading))])
    await store.send(["type": "useKept"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.location == "rows.lua:\(line(of: "-- a row kept from an earlier action", in: Self.source)!)")
    #expect(error.message.contains("state used outside its reducer call"), "\(error)")
    #expect(store.state.done == 0)
    #expect(store.state.rows.arrayValue?[reading - 1][LuaString("done")] == false)
  }

  @Test func aCallThatReadEveryRowLeavesNoCacheOfItsProxiesBehind() async throws {
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    let vm = harness.host.vm
    await store.send(["type": "touch"])
    vm.collectGarbage()
    let before = vm.memoryInUse
    // NB: 20,000 rows read through proxies: caches that kept their size would hold about 3 MB.
    await store.send(["type": "count"])
    await store.send(["type": "touch"])
    vm.collectGarbage()
    #expect(vm.memoryInUse - before < 256 << 10, "\(vm.memoryInUse - before) bytes more")
    #expect(harness.takeErrors().isEmpty)
  }
}
