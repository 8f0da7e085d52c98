import Foundation
import LuaBridge
import Testing

/// The sandbox behaves as stock Lua 5.4.4 (`lua5.4`) does where nothing forbids it: the expected
/// values and messages below are stock's, printed by `lua5.4` for the same code.
@Suite final class StockBehaviourTests {
  let vm: LuaVM
  let folder: URL

  init() throws {
    vm = try makeVM()
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-stock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  func run(_ sandbox: LuaSandbox, _ source: String) throws -> [LuaValue] {
    try vm.call(sandbox.load(source, chunkName: "main.lua"))
  }

  /// `return #"café", "café"` with é as one Latin-1 byte (0xE9).
  static let latin1Source: [UInt8] = Array("return #\"caf".utf8) + [0xE9] + Array("\", \"caf".utf8) + [0xE9] + Array("\"".utf8)

  @Test func aFileIsBytesSoALatin1LiteralKeepsItsByte() throws {
    try Data(Self.latin1Source).write(to: folder.appendingPathComponent("feature.lua"))
    let sandbox = try vm.makeSandbox(.init(root: folder))
    let values = try vm.call(sandbox.loadFile("feature.lua"))
    #expect(values == [4, .string(LuaString(bytes: Array("caf".utf8) + [0xE9]))])
  }

  @Test func aModuleIsBytesSoALatin1LiteralKeepsItsByte() throws {
    try Data(Self.latin1Source).write(to: folder.appendingPathComponent("latin.lua"))
    let sandbox = try vm.makeSandbox(.init(root: folder))
    #expect(try run(sandbox, "return (require 'latin')") == [4])
  }

  @Test func printOfBytesThatAreNotUTF8EscapesThemInsteadOfRaising() throws {
    nonisolated(unsafe) var lines: [String] = []
    vm.printHandler = { lines.append($0) }
    let sandbox = try vm.makeSandbox()
    _ = try run(sandbox, #"print("caf\233", 1, nil) print("é\255\0") print(string.pack("i2", 513))"#)
    #expect(lines == ["caf\\233\t1\tnil", "é\\255\0", "\u{1}\u{2}"])
  }

  @Test func printUsesTostringAndNameAsStockDoes() throws {
    nonisolated(unsafe) var lines: [String] = []
    vm.printHandler = { lines.append($0) }
    let sandbox = try vm.makeSandbox()
    _ = try run(sandbox, "print(setmetatable({}, { __tostring = function() return 'me' end }), 1.5, true)")
    #expect(lines == ["me\t1.5\ttrue"])
  }

  @Test func errorsOfTheSandboxsFunctionsNameTheCallersFunction() throws {
    let sandbox = try vm.makeSandbox()
    let values = try run(sandbox, """
      return select(2, pcall(setmetatable, 1, {})),
        select(2, pcall(function() setmetatable({}, 1) end)),
        select(2, pcall(load, nil)),
        select(2, pcall(load)),
        select(2, pcall(function() load({}) end))
      """)
    #expect(values == [
      "bad argument #1 to 'setmetatable' (table expected, got number)",
      "main.lua:2: bad argument #2 to 'setmetatable' (nil or table expected, got number)",
      "bad argument #1 to 'load' (function expected, got nil)",
      "bad argument #1 to 'load' (function expected, got no value)",
      "main.lua:5: bad argument #1 to 'load' (function expected, got table)",
    ])
  }

  @Test func theSandboxsFunctionsAreCFunctionsThatDumpRefuses() throws {
    let sandbox = try vm.makeSandbox()
    let values = try run(sandbox, """
      local out = {}
      for _, f in ipairs({ print, load, setmetatable, collectgarbage }) do
        out[#out + 1] = select(2, pcall(string.dump, f))
      end
      return table.unpack(out)
      """)
    #expect(values == Array(repeating: "unable to dump given function", count: 4))
  }

  @Test func randomsEmptyIntervalIsReportedAsStockReportsIt() throws {
    let sandbox = try vm.makeSandbox()
    let values = try run(sandbox, "return select(2, pcall(math.random, 2, 1)), select(2, pcall(function() math.random(2, 1) end))")
    #expect(values == ["bad argument #1 to 'math.random' (interval is empty)", "main.lua:1: bad argument #1 to 'random' (interval is empty)"])
  }

  @Test func randomseedReturnsItsSeedsWhichReplayTheSequence() throws {
    let sandbox = try vm.makeSandbox(.init(randomSeed: 5))
    let values = try run(sandbox, """
      local a, b = math.randomseed(7, -3)
      local first = math.random(1 << 40)
      math.randomseed(a, b)
      local h1, h2 = math.randomseed()
      return a, b, first, math.random(1 << 40) ~= first, h1, h2
      """)
    #expect(values == [7, -3, 396_895_772_954, true, 5, 0])
  }

  @Test func aSeedGivesStocksSequence() throws {
    let fromHost = try vm.makeSandbox(.init(randomSeed: 42))
    let draw = "return math.random(1, 1000), math.random(), math.random(0), math.random(6)"
    let stock: [LuaValue] = [742, 0.45178389935924312, -8_358_531_260_401_861_301, 6]
    #expect(try run(fromHost, draw) == stock)
    #expect(try run(vm.makeSandbox(), "math.randomseed(42) " + draw) == stock)
  }

  @Test func loadHonoursTheModeAndNeverLoadsBinaryChunks() throws {
    let sandbox = try vm.makeSandbox()
    let values = try run(sandbox, """
      local dump = string.dump(function() end)
      return select(2, load("return 1", "x", "b")),
        select(2, load("return 1", "x", "x")),
        select(2, load(dump, "x", "t")),
        select(2, load(dump, "x", "x")),
        select(2, load(dump, "x", "b")),
        select(2, load(dump)),
        load("return 1", "x", "t")(),
        select(2, load(function() return nil end, "x", "b"))
      """)
    #expect(values == [
      "attempt to load a text chunk (mode is 'b')",
      "attempt to load a text chunk (mode is 'x')",
      "attempt to load a binary chunk (mode is 't')",
      "attempt to load a binary chunk (mode is 'x')",
      "attempt to load a binary chunk (binary chunks are never loaded in the sandbox)",
      "attempt to load a binary chunk (binary chunks are never loaded in the sandbox)",
      1,
      "attempt to load a text chunk (mode is 'b')",
    ])
  }

  @Test func requireOfAStandardLibraryReturnsIt() throws {
    let sandbox = try vm.makeSandbox()
    let values = try run(sandbox, """
      return require "string" == string, require "table" == table, require "math" == math,
        require "utf8" == utf8, select("#", require "string")
      """)
    #expect(values == [true, true, true, true, 1])
  }
}
