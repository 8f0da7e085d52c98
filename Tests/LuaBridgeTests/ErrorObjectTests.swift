import LuaBridge
import Testing

/// `error(x)` for every type of `x` becomes a readable LuaError, and the VM carries on.
@Suite struct ErrorObjectTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var raise: String
    var message: String
    var value: LuaValue?
    var testDescription: String { raise }
  }

  static let cases: [Case] = [
    Case(raise: "error('plain')", message: "errors.lua:1: plain", value: "errors.lua:1: plain"),
    Case(raise: "error('no position', 0)", message: "no position", value: "no position"),
    Case(raise: "error(nil)", message: "error object is nil", value: .nil),
    Case(raise: "error()", message: "error object is nil", value: .nil),
    Case(raise: "error(true)", message: "error object is a boolean: true", value: true),
    Case(raise: "error(42)", message: "error object is a number: 42", value: 42),
    Case(raise: "error(4.5)", message: "error object is a number: 4.5", value: 4.5),
    Case(raise: "error({code = 1})", message: "error object is a table: { code = 1 }", value: ["code": 1]),
    Case(raise: "error({})", message: "error object is a table: {}", value: .table([:])),
    Case(raise: "error(print)", message: "error object is a function value", value: nil),
    Case(raise: "error(coroutine.create(print))", message: "error object is a thread value", value: nil),
    Case(raise: "error({f = print})", message: "error object is a table value", value: nil),
    Case(raise: "error(setmetatable({}, {__tostring = function() return 'described' end}))", message: "described", value: .table([:])),
    // NB: Lua calls the message handler again for an error raised inside it, with the new error.
    Case(raise: "error(setmetatable({}, {__tostring = function() error('nested') end}))", message: "errors.lua:1: nested", value: "errors.lua:1: nested"),
  ]

  @Test(arguments: cases)
  func errorObjectBecomesReadableError(_ c: Case) throws {
    let vm = try makeVM()
    let chunk = try vm.load(c.raise, chunkName: "errors.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    #expect(error.message == c.message)
    #expect(error.value == c.value)
    #expect(try vm.call(vm.load("return 'fine'", chunkName: "after.lua")) == ["fine"])
  }

  @Test func descriptionShowsHeadlineAndIndentedTraceback() throws {
    let vm = try makeVM()
    let chunk = try vm.load("local function inner() error('boom') end\ninner()", chunkName: "trace.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(chunk) }
    let lines = error.description.split(separator: "\n").map(String.init)
    #expect(lines.first == "runtime error: trace.lua:1: boom")
    #expect(lines.contains("  stack traceback:"))
    #expect(lines.contains { $0.contains("trace.lua:1: in local 'inner'") || $0.contains("trace.lua:1: in upvalue 'inner'") || $0.contains("in function 'inner'") })
  }
}
