import Foundation
import LuaBridge
import Testing

/// With the library shims (on by default), common pure-Lua libraries load unmodified (Penlight and inspect.lua from
/// Debian's packages, vendored in `Fixtures/libraries`), and nothing they offer reaches files,
/// processes or the environment.
@Suite struct LibraryShimTests {
  static let libraries: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/libraries")
    .standardizedFileURL.resolvingSymlinksInPath()

  func makeSandbox(_ vm: LuaVM) throws -> LuaSandbox {
    try vm.makeSandbox(.init(root: Self.libraries, clock: { 1_700_000_000.75 }))
  }

  @Test func penlightAndInspectLoadAndWorkFromAReducer() throws {
    let vm = try makeVM()
    let sandbox = try makeSandbox(vm)
    let reduce = try vm.call(sandbox.load("""
      local List = require "pl.List"
      local tablex = require "pl.tablex"
      local stringx = require "pl.stringx"
      local class = require "pl.class"
      local inspect = require "inspect"
      local Counter = class()
      function Counter:_init(n) self.n = n end
      function Counter:bump() self.n = self.n + 1 return self.n end
      return function(state, action)
        local words = List(stringx.split(action.text))
        local counter = Counter(#state.words)
        words:foreach(function(w) state.words[#state.words + 1] = w:upper() end)
        return counter:bump(), tablex.size(state.words), inspect({ 1, a = "b" }), words:join(",")
      end
      """, chunkName: "feature.lua"), returning: LuaFunction.self)
    let state = try vm.call(sandbox.load("return { words = { 'zero' } }", chunkName: "state.lua"), returning: LuaTable.self)
    let values = try reduce.call(state, ["text": "one two three"] as LuaValue)
    #expect(values == [2, 4, "{ 1,\n  a = \"b\"\n}", "one,two,three"])
  }

  @Test func theShimsAreHarmless() throws {
    let vm = try makeVM()
    nonisolated(unsafe) var lines: [String] = []
    vm.printHandler = { lines.append($0) }
    let sandbox = try makeSandbox(vm)
    let values = try vm.call(sandbox.load("""
      local io_returned = io.write("a", 1, "\\233") == io
      return package.config, package.path, os.getenv("HOME"), os.time(), os.clock(), io_returned,
        io.read, io.open, os.execute, os.remove, os.exit, package.loadlib, debug,
        select(2, pcall(io.write, {})), select(2, pcall(os.time, { year = 2000 }))
      """, chunkName: "main.lua"))
    #expect(values == [
      "/\n;\n?\n!\n-\n", "./?.lua;./?/init.lua", nil, 1_700_000_000, 0.0, true,
      nil, nil, nil, nil, nil, nil, nil,
      "bad argument #1 to 'io.write' (string expected, got table)",
      "os.time: only os.time() is offered in the sandbox (no dates)",
    ])
    #expect(lines == ["a1\\233"])
  }

  @Test func exactlyTheShimsAreOfferedByDefaultAndNothingElseOfPackageIoOrOs() throws {
    let vm = try makeVM()
    let sandbox = try vm.makeSandbox()
    let keys = try vm.call(sandbox.load("""
      local function keys(t) local r = {} for k in pairs(t) do r[#r + 1] = k end table.sort(r) return table.concat(r, " ") end
      return keys(package), keys(io), keys(os), type(debug), type(dofile), type(loadfile)
      """, chunkName: "main.lua"))
    #expect(keys == ["config cpath path", "write", "clock getenv time", "nil", "nil", "nil"])
  }

  @Test func withoutTheShimsThereIsNoPackageIoOrOs() throws {
    let vm = try makeVM()
    let sandbox = try vm.makeSandbox(.init(root: Self.libraries, offersLibraryShims: false))
    #expect(try vm.call(sandbox.load("return type(package), type(io), type(os)", chunkName: "main.lua")) == ["nil", "nil", "nil"])
    let error = try #require(throws: LuaError.self) { try vm.call(sandbox.load("require 'pl.utils'", chunkName: "main.lua")) }
    #expect(error.message == "pl/compat.lua:29: attempt to index a nil value (field 'package')")
  }
}
