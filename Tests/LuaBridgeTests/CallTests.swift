import LuaBridge
import Testing

@Suite struct CallTests {
  let vm: LuaVM

  init() throws {
    vm = try makeVM()
  }

  @Test func callReturnsAllResultsAsData() throws {
    let chunk = try vm.load("return 1, 2.5, 'x', nil, {a = true}", chunkName: "results.lua")
    #expect(try vm.call(chunk) == [1, 2.5, "x", nil, ["a": true]])
  }

  @Test func callPassesArgumentsOfEveryKind() throws {
    let chunk = try vm.load("return function(...) return select('#', ...), ... end", chunkName: "args.lua")
    let echo = try chunk.call(returning: LuaFunction.self)
    let results = try echo.call(1, 2.0, "s", true, LuaValue.nil, ["k": [1, 2]] as LuaValue)
    #expect(results == [6, 1, 2.0, "s", true, nil, ["k": [1, 2]]])
  }

  @Test func runtimeErrorNamesChunkFileAndLine() throws {
    let chunk = try vm.load("local x = 1\nlocal y = nil\nreturn y.field", chunkName: "counter.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    #expect(error.kind == .runtime)
    #expect(error.message == "counter.lua:3: attempt to index a nil value (local 'y')")
    #expect(error.file == "counter.lua")
    #expect(error.line == 3)
    #expect(error.traceback?.contains("counter.lua:3: in main chunk") == true)
  }

  @Test func syntaxErrorIsTypedWithPosition() throws {
    let error = try #require(throws: LuaError.self) { try vm.load("local = 3", chunkName: "broken.lua") }
    #expect(error.kind == .syntax)
    #expect(error.message == "broken.lua:1: <name> expected near '='")
    #expect(error.line == 1)
  }

  @Test func tableErrorObjectBecomesReadableMessageAndValue() throws {
    let chunk = try vm.load("error({code = 1})", chunkName: "obj.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    #expect(error.kind == .runtime)
    #expect(error.message == "error object is a table: { code = 1 }")
    #expect(error.value == ["code": 1])
    #expect(error.file == "obj.lua")
    #expect(error.line == 1)
  }

  @Test func nilErrorObjectIsReadable() throws {
    let chunk = try vm.load("error(nil)", chunkName: "nil.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    #expect(error.message == "error object is nil")
    #expect(error.value == .nil)
  }

  @Test func errorObjectWithToStringUsesIt() throws {
    let chunk = try vm.load(
      "error(setmetatable({}, {__tostring = function() return 'custom failure' end}))", chunkName: "ts.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    #expect(error.message == "custom failure")
  }

  @Test func binaryChunksAreRefusedByLoad() throws {
    let error = try #require(throws: LuaError.self) { try vm.load("\u{1B}Lua\u{54}\u{00}", chunkName: "bin") }
    #expect(error.kind == .syntax)
    #expect(error.message.contains("attempt to load a binary chunk (mode is 't')"))
  }

  @Test func functionResultCanBeHeldAndCalledAgain() throws {
    let chunk = try vm.load("local n = 0; return function() n = n + 1; return n end", chunkName: "counter.lua")
    let next = try chunk.call(returning: LuaFunction.self)
    _ = try next.call()
    #expect(try next.call(returning: Int.self) == 2)
  }

  @Test func readingAFunctionAsDataNamesItsPath() throws {
    let chunk = try vm.load("return {items = {1, 2, {onTap = function() end}}}", chunkName: "ui.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    #expect(error.kind == .conversion)
    #expect(error.conversion?.path.description == "result #1.items[3].onTap")
    #expect(error.conversion?.problem == .notData(type: "function"))
  }
}
