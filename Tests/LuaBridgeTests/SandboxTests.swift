import Foundation
import LuaBridge
import Testing

@Suite final class SandboxTests {
  let vm: LuaVM
  let folder: URL

  init() throws {
    vm = try makeVM()
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-sandbox-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("views"), withIntermediateDirectories: true)
  }

  // NB: a class, so that each test's folder is removed when the test ends.
  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  func write(_ path: String, _ source: String) throws {
    try source.write(to: folder.appendingPathComponent(path), atomically: true, encoding: .utf8)
  }

  func run(_ sandbox: LuaSandbox, _ source: String) throws -> [LuaValue] {
    try vm.call(sandbox.load(source, chunkName: "main.lua"))
  }

  @Test func sandboxesCannotSeeEachOthersGlobals() throws {
    let a = try vm.makeSandbox()
    let b = try vm.makeSandbox()
    _ = try run(a, "secret = 42")
    #expect(try run(b, "return secret") == [nil])
    #expect(try run(a, "return secret") == [42])
  }

  @Test func changingALibraryTableStaysInsideTheSandbox() throws {
    let a = try vm.makeSandbox()
    let b = try vm.makeSandbox()
    _ = try run(a, "string.upper = function() return 'pwned' end; table.insert = nil")
    #expect(try run(b, "return string.upper('x'), ('y'):upper(), type(table.insert)") == ["X", "Y", "function"])
  }

  @Test func stringMetatableIsHiddenButMethodsWork() throws {
    let sandbox = try vm.makeSandbox()
    #expect(try run(sandbox, "return getmetatable(''), ('abc'):sub(2)") == [false, "bc"])
  }

  @Test func onlyRequireAndTheLibraryShimsAreAddedToTheSafeBaseFunctions() throws {
    let sandbox = try vm.makeSandbox()
    let types = try run(sandbox, """
      return type(io), type(os), type(debug), type(package), type(dofile), type(loadfile),
        type(warn), type(coroutine), type(require), type(pcall), type(utf8)
      """)
    // NB: `io`, `os` and `package` hold the library shims only (LibraryShimTests).
    #expect(types == ["table", "table", "nil", "table", "nil", "nil", "nil", "nil", "function", "function", "table"])
  }

  @Test func coroutinesCanBeAllowed() throws {
    let sandbox = try vm.makeSandbox(.init(allowsCoroutines: true))
    #expect(try run(sandbox, "return coroutine.wrap(function() coroutine.yield(5) end)()") == [5])
  }

  @Test func collectGarbageAllowsOnlyCount() throws {
    let sandbox = try vm.makeSandbox()
    #expect(try run(sandbox, "return math.type(collectgarbage('count'))") == ["float"])
    let error = try #require(throws: LuaError.self) { try run(sandbox, "collectgarbage()") }
    #expect(error.message == "main.lua:1: collectgarbage: only 'count' is allowed in the sandbox (got no option)")
  }

  @Test func loadUsesTheSandboxEnvironmentByDefault() throws {
    let sandbox = try vm.makeSandbox()
    _ = try run(sandbox, "mine = 'here'")
    #expect(try run(sandbox, "return load('return mine')()") == ["here"])
    #expect(try run(sandbox, "return load('return mine', 'x', 't', {mine = 'other'})()") == ["other"])
  }

  @Test func loadRefusesBinaryChunksWhateverTheMode() throws {
    let sandbox = try vm.makeSandbox()
    #expect(try run(sandbox, "return load(string.dump(function() end), 'b', 'b')") == [nil, "attempt to load a binary chunk (binary chunks are never loaded in the sandbox)"])
  }

  @Test func mathRandomIsDeterministicForASeed() throws {
    let a = try vm.makeSandbox(.init(randomSeed: 42))
    let b = try vm.makeSandbox(.init(randomSeed: 42))
    let draw = "local t = {} for i = 1, 5 do t[i] = math.random(1, 1000) end t[6] = math.random() return t"
    let first = try run(a, draw)
    #expect(first == (try run(b, draw)))
    #expect(first != (try run(vm.makeSandbox(.init(randomSeed: 43)), draw)))
  }

  @Test func hostReseedingReplaysTheSequence() throws {
    let sandbox = try vm.makeSandbox(.init(randomSeed: 1))
    let draw = "return math.random(1, 1 << 40), math.random(0)"
    let first = try run(sandbox, draw)
    #expect(first != (try run(sandbox, draw)))
    sandbox.seedRandom(1)
    #expect(first == (try run(sandbox, draw)))
  }

  @Test func randomseedWithoutArgumentsReturnsToTheHostSeed() throws {
    let sandbox = try vm.makeSandbox(.init(randomSeed: 9))
    let first = try run(sandbox, "return math.random(100)")
    #expect(try run(sandbox, "math.randomseed(123) math.randomseed() return math.random(100)") == first)
  }

  @Test func randomKeepsLuasArgumentRules() throws {
    let sandbox = try vm.makeSandbox()
    let values = try run(sandbox, "local ok, e = pcall(function() return math.random(3, 1) end) return e, math.random(5, 5)")
    #expect(values == ["main.lua:1: bad argument #1 to 'random' (interval is empty)", 5])
  }

  @Test func requireLoadsModulesFromTheRootFolderOnce() throws {
    try write("views/row.lua", "loads = (loads or 0) + 1 return { name = 'row', loads = loads }")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    #expect(try run(sandbox, "local a = require 'views.row' local b = require('views/row') return a == b, a.name, loads") == [true, "row", 1])
    #expect(sandbox.loadedFiles.map(\.lastPathComponent) == ["row.lua"])
  }

  @Test func requireFindsInitFiles() throws {
    try write("views/init.lua", "return 'views package'")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    #expect(try run(sandbox, "return (require 'views')") == ["views package"])
  }

  @Test func moduleErrorsNameTheModuleFile() throws {
    try write("broken.lua", "local x = \nreturn")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let error = try #require(throws: LuaError.self) { try run(sandbox, "local m = require 'broken'") }
    #expect(error.message.hasPrefix("main.lua:1: broken.lua:2: unexpected symbol"))
  }

  @Test func resetModulesLoadsFreshSourceAndForgetsFiles() throws {
    try write("config.lua", "return { version = 1 }")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    #expect(try run(sandbox, "return require('config').version") == [1])
    try write("config.lua", "return { version = 2 }")
    #expect(try run(sandbox, "return require('config').version") == [1])
    try sandbox.resetModules()
    #expect(sandbox.loadedFiles.isEmpty)
    #expect(try run(sandbox, "return require('config').version") == [2])
  }

  @Test func requireCacheIsPerSandbox() throws {
    try write("counter.lua", "return { n = 0 }")
    let a = try vm.makeSandbox(.init(root: folder))
    let b = try vm.makeSandbox(.init(root: folder))
    _ = try run(a, "require('counter').n = 5")
    #expect(try run(b, "return require('counter').n") == [0])
  }

  @Test func circularRequireIsReported() throws {
    try write("ping.lua", "return require 'pong'")
    try write("pong.lua", "return require 'ping'")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let error = try #require(throws: LuaError.self) { try run(sandbox, "local p = require 'ping'") }
    #expect(error.message.contains("module 'ping' requires itself while loading (circular require)"))
    try write("pong.lua", "return 'pong'")
    try sandbox.resetModules()
    #expect(try run(sandbox, "return (require 'ping')") == ["pong"])
  }

  @Test func symlinksLeavingTheFolderAreRefused() throws {
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-outside-\(UUID().uuidString).lua")
    try "return 'escaped'".write(to: outside, atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("escape.lua"), withDestinationURL: outside)
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let error = try #require(throws: LuaError.self) { try run(sandbox, "local m = require 'escape'") }
    #expect(error.message.contains("module 'escape' not found"))
  }

  @Test func hostSourceModuleIsCompiledPerSandbox() throws {
    vm.registerModule("lunar", source: "return { version = '1', fx = {} }", chunkName: "lunar.lua")
    let a = try vm.makeSandbox()
    let b = try vm.makeSandbox()
    _ = try run(a, "require('lunar').fx.poisoned = true")
    #expect(try run(b, "return require('lunar').version, require('lunar').fx.poisoned") == ["1", nil])
  }

  @Test func hostModulesWinOverFiles() throws {
    try write("lunar.lua", "return 'file'")
    vm.registerModule("lunar", source: "return 'host'", chunkName: "lunar.lua")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    #expect(try run(sandbox, "return (require 'lunar')") == ["host"])
  }

  @Test func hostLoaderModuleIsBuiltInSwift() throws {
    let loader = try vm.function(named: "loader") { args in
      let module = try args.vm.newTable()
      try module.set("name", try args.string(1))
      return .value(module)
    }
    try vm.registerModule("native", loader: loader)
    let sandbox = try vm.makeSandbox()
    #expect(try run(sandbox, "return require('native').name") == ["native"])
  }

  @Test func loadFileRecordsTheFileAndNamesErrorsByRelativePath() throws {
    try write("feature.lua", "return function() error('bad') end")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let body = try sandbox.loadFile("feature.lua").call(returning: LuaFunction.self)
    let error = try #require(throws: LuaError.self) { try body.call() }
    #expect(error.message == "feature.lua:1: bad")
    #expect(sandbox.loadedFiles.map(\.lastPathComponent) == ["feature.lua"])
  }

  @Test func theSandboxsOwnLuaIsNamedByItsRealFileInTracebacks() throws {
    try write("broken.lua", "error('bad')")
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let error = try #require(throws: LuaError.self) { try run(sandbox, "require 'broken'") }
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/LuaBridge/Lua/lunar/sandbox.lua")
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    let call = try #require(lines.firstIndex { $0.contains("value = chunk(name, origin)") }) + 1
    #expect(error.traceback?.contains("lunar/sandbox.lua:\(call):") == true, "\(error)")
  }

  @Test func loadFileRefusesPathsOutsideTheRoot() throws {
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let error = try #require(throws: LuaError.self) { try sandbox.loadFile("../etc/passwd") }
    #expect(error.kind == .misuse)
  }

  @Test func printGoesToTheHostHandler() throws {
    nonisolated(unsafe) var lines: [String] = []
    vm.printHandler = { lines.append($0) }
    let sandbox = try vm.makeSandbox()
    _ = try run(sandbox, "print('a', 1, nil, true)")
    #expect(lines == ["a\t1\tnil\ttrue"])
  }
}
