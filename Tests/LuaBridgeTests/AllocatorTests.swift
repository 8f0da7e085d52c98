import LuaBridge
import Testing

/// The allocator keeps small blocks in a pool (CLuaShim/alloc.c); what Lua sees must not change.
@Suite struct AllocatorTests {
  @Test func smallObjectsMadeAndCollectedLeaveMemoryWhereItWas() throws {
    let vm = try makeVM()
    let churn = try vm.load(
      "local kept = 0 for i = 1, 200000 do local t = { n = i } kept = kept + t.n end return kept",
      chunkName: "churn.lua"
    )
    _ = try vm.call(churn)
    vm.collectGarbage()
    let settled = vm.memoryInUse
    _ = try vm.call(churn)
    vm.collectGarbage()
    // NB: the second round reuses the first's blocks; what Lua holds is counted exactly.
    #expect(vm.memoryInUse == settled)
    #expect(vm.memoryInUse == vm.garbageCollectorCount)
  }

  @Test func blocksGrowingPastThePoolAndShrinkingBackKeepTheirContents() throws {
    let vm = try makeVM()
    // A table's hash part moves from pool blocks to system blocks and back as it grows and empties;
    // strings of every size class sit next to each other.
    let roundTrip = try vm.load(
      """
      local t = {}
      for i = 1, 64 do t["k" .. i] = string.rep("x", i) end
      for i = 1, 60 do t["k" .. i] = nil end
      collectgarbage("collect")
      local u = {}
      for i = 1, 8 do u[i] = string.rep(string.char(64 + i), i * 16) end
      local ok = true
      for i = 61, 64 do ok = ok and t["k" .. i] == string.rep("x", i) end
      for i = 1, 8 do ok = ok and #u[i] == i * 16 and u[i]:sub(-1) == string.char(64 + i) end
      return ok
      """,
      chunkName: "resize.lua"
    )
    #expect(try vm.call(roundTrip) == [true])
  }

  @Test func theMemoryCeilingStillCountsPooledBlocks() throws {
    let vm = try makeVM(memory: 4 << 20)
    let small = try vm.load("local t = {} for i = 1, 1e7 do t[i] = { i } end", chunkName: "small.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(small) }
    #expect(error.kind == .memory)
    vm.collectGarbage()
    #expect(vm.memoryInUse < 4 << 20)
    #expect(try vm.call(vm.load("return #{ 1, 2, 3 }", chunkName: "ok.lua")) == [3])
  }
}
