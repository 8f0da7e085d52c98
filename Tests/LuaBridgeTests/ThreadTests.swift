import LuaBridge
import Testing

@Suite struct ThreadTests {
  let vm: LuaVM

  init() throws { vm = try makeVM() }

  func thread(_ source: String) throws -> LuaThread {
    try vm.newThread(vm.load(source, chunkName: "job.lua"))
  }

  @Test func resumeReportsYieldsThenTheResults() throws {
    let job = try thread("local a = ... local b = coroutine.yield(a + 1) return a + b, 'done'")
    #expect(try job.resume(1) == .yielded([2]))
    #expect(job.status == .suspended)
    #expect(try job.resume(10) == .finished([11, "done"]))
    #expect(job.status == .finished)
  }

  @Test func failureCarriesTracebackAndPosition() throws {
    let job = try thread("coroutine.yield()\nlocal t = nil\nreturn t.x")
    _ = try job.resume()
    let error = try #require(throws: LuaError.self) { try job.resume() }
    #expect(error.kind == .runtime)
    #expect(error.message == "job.lua:3: attempt to index a nil value (local 't')")
    #expect(error.line == 3)
    #expect(error.traceback?.contains("job.lua:3") == true)
    #expect(job.status == .failed)
  }

  @Test func resumingAFinishedThreadIsMisuse() throws {
    let job = try thread("return 1")
    _ = try job.resume()
    let error = try #require(throws: LuaError.self) { try job.resume() }
    #expect(error.kind == .misuse)
  }

  @Test func swiftFunctionYieldsARequestAndResumeDeliversTheResult() throws {
    let fetch = try vm.function(named: "fetch") { args in
      guard args.canYield else { throw LuaError(kind: .runtime, message: "fetch must run inside fx.run") }
      return .yield(["request": "fetch", "n": .integer(try args.integer(1))] as LuaValue)
    }
    let job = try vm.newThread(vm.load("local fetch = ... return 'fact: ' .. fetch(7)", chunkName: "effect.lua"))
    #expect(try job.resume(fetch) == .yielded([["request": "fetch", "n": 7]]))
    #expect(job.isWaitingForHost)
    #expect(try job.resume("7 is lucky") == .finished(["fact: 7 is lucky"]))
  }

  @Test func resumeThrowingRaisesAtTheYieldPointWherePcallCatchesIt() throws {
    let fetch = try vm.function(named: "fetch") { _ in .yield() }
    let job = try vm.newThread(vm.load("""
      local fetch = ...
      local ok, err = pcall(fetch)
      return ok, err
      """, chunkName: "effect.lua"))
    _ = try job.resume(fetch)
    #expect(try job.resume(throwing: "timed out") == .finished([false, "timed out"]))
  }

  @Test func resumeThrowingUncaughtFailsTheThreadWithPosition() throws {
    let fetch = try vm.function(named: "fetch") { _ in .yield() }
    let job = try vm.newThread(vm.load("local fetch = ...\nlocal x = fetch()\nreturn x", chunkName: "effect.lua"))
    _ = try job.resume(fetch)
    let error = try #require(throws: LuaError.self) { try job.resume(throwing: "network down") }
    #expect(error.message == "effect.lua:2: network down")
    #expect(job.status == .failed)
  }

  @Test func resumeThrowingAfterALuaYieldIsMisuse() throws {
    let job = try thread("coroutine.yield()")
    _ = try job.resume()
    #expect(!job.isWaitingForHost)
    let error = try #require(throws: LuaError.self) { try job.resume(throwing: "x") }
    #expect(error.kind == .misuse)
  }

  @Test func yieldingOutsideACoroutineIsAnError() throws {
    let fetch = try vm.function(named: "fetch") { _ in .yield(1) }
    let chunk = try vm.load("local fetch = ... return fetch()", chunkName: "reducer.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk, fetch) }
    #expect(error.message.contains("attempt to yield from outside a coroutine"))
    #expect(try vm.call(vm.load("return 2", chunkName: "ok.lua")) == [2])
  }

  @Test func yieldInsideSwiftCallbackIntoLuaIsRefused() throws {
    let callback = try vm.function(named: "callback") { args in
      .value(try args.function(1).call(returning: LuaValue.self))
    }
    let job = try vm.newThread(vm.load("local cb = ... return cb(function() coroutine.yield(1) end)", chunkName: "nest.lua"))
    let error = try #require(throws: LuaError.self) { try job.resume(callback) }
    #expect(error.message.contains("attempt to yield across a C-call boundary"))
  }

  @Test func instructionBudgetAppliesPerResume() throws {
    vm.limits.instructionsPerCall = 50_000
    let job = try thread("while true do for i = 1, 10000 do end coroutine.yield() end")
    for _ in 0..<10 { #expect(try job.resume() == .yielded([])) }
    let spin = try thread("while true do end")
    let error = try #require(throws: LuaError.self) { try spin.resume() }
    #expect(error.kind == .instructionLimit)
  }

  @Test func closeRunsPendingToBeClosedVariables() throws {
    let log = try vm.newTable()
    let job = try vm.newThread(vm.load("""
      local log = ...
      local guard <close> = setmetatable({}, {__close = function() log.closed = true end})
      coroutine.yield()
      """, chunkName: "close.lua"))
    _ = try job.resume(log)
    job.close()
    #expect(job.status == .closed)
    #expect(try log.get("closed") == true)
  }

  @Test func manyYieldingThreadsRunIndependently() throws {
    let ask = try vm.function(named: "ask") { args in .yield(try args.integer(1)) }
    let body = try vm.load("local ask, id = ... local reply = ask(id) return id * 100 + reply", chunkName: "many.lua")
    let jobs = try (1...20).map { _ in try vm.newThread(body) }
    for (i, job) in jobs.enumerated() { #expect(try job.resume(ask, i) == .yielded([.integer(Int64(i))])) }
    for (i, job) in jobs.enumerated().reversed() { #expect(try job.resume(1) == .finished([.integer(Int64(i * 100 + 1))])) }
  }
}
