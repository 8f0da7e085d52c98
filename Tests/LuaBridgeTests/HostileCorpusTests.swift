import Foundation
import LuaBridge
import Testing

/// Every script of `Hostile/` fails with a typed error, and the VM then serves a normal call.
@Suite struct HostileCorpusTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var kind: LuaError.Kind
    var message: String
    /// The instruction budget of the case's VM.
    var instructions = 5_000_000
    var testDescription: String { file }
  }

  static let cases: [Case] = [
    Case(file: "infinite_loop.lua", kind: .instructionLimit, message: "infinite_loop.lua:2: instruction limit exceeded (5000000 instructions per call)"),
    Case(file: "pcall_swallows_budget.lua", kind: .instructionLimit, message: "pcall_swallows_budget.lua:3: instruction limit exceeded (5000000 instructions per call)"),
    // NB: string.rep counts its bytes against the budget: 64 MiB of it takes more than 5 million.
    Case(file: "memory_bomb.lua", kind: .memory, message: "not enough memory", instructions: 50_000_000),
    Case(file: "string_rep_2_40.lua", kind: .runtime, message: "string_rep_2_40.lua:2: resulting string too large"),
    Case(file: "string_rep_2_30.lua", kind: .memory, message: "not enough memory"),
    Case(file: "pcall_swallows_memory.lua", kind: .instructionLimit, message: "pcall_swallows_memory.lua:3: instruction limit exceeded (5000000 instructions per call)"),
    Case(file: "deep_recursion.lua", kind: .stackOverflow, message: "deep_recursion.lua:3: stack overflow"),
    Case(file: "deep_c_recursion.lua", kind: .stackOverflow, message: "deep_c_recursion.lua:2: C stack overflow"),
    Case(file: "binary_chunk.lua", kind: .runtime, message: "binary_chunk.lua:2: attempt to load a binary chunk (binary chunks are never loaded in the sandbox)"),
    Case(file: "crafted_bytecode.lua", kind: .runtime, message: "crafted_bytecode.lua:3: attempt to load a binary chunk (binary chunks are never loaded in the sandbox)"),
    Case(file: "os_execute.lua", kind: .runtime, message: "os_execute.lua:1: attempt to call a nil value (field 'execute')"),
    Case(file: "io_open.lua", kind: .runtime, message: "io_open.lua:1: attempt to call a nil value (field 'open')"),
    Case(file: "debug_registry.lua", kind: .runtime, message: "debug_registry.lua:1: attempt to index a nil value (global 'debug')"),
    Case(file: "require_os.lua", kind: .runtime, message: "require_os.lua:1: module 'os' not found: no host module 'os', no file 'os.lua', no file 'os/init.lua' in \(folder.path)"),
    Case(file: "require_parent.lua", kind: .runtime, message: "require_parent.lua:1: module name '../x' is not allowed: '..' is not allowed (modules resolve inside the feature's folder)"),
    Case(file: "require_absolute.lua", kind: .runtime, message: "require_absolute.lua:1: module name '/etc/passwd' is not allowed: absolute paths are not allowed"),
    Case(file: "string_metatable.lua", kind: .runtime, message: "string_metatable.lua:2: attempt to index a boolean value"),
    Case(file: "gc_raises.lua", kind: .runtime, message: "gc_raises.lua:2: setmetatable: __gc metamethods are not allowed in the sandbox"),
    Case(file: "collectgarbage_stop.lua", kind: .runtime, message: "collectgarbage_stop.lua:1: collectgarbage: only 'count' is allowed in the sandbox (got 'stop')"),
    Case(file: "require_spinning_module.lua", kind: .instructionLimit, message: "modules/spin.lua:4: instruction limit exceeded (5000000 instructions per call)"),
    Case(file: "require_raising_module.lua", kind: .runtime, message: "modules/raises.lua:3: this module fails while it loads"),
    Case(file: "dofile.lua", kind: .runtime, message: "dofile.lua:1: attempt to call a nil value (global 'dofile')"),
  ]

  static let folder: URL = Bundle.module.resourceURL!.appendingPathComponent("Hostile")
    .standardizedFileURL.resolvingSymlinksInPath()

  @Test(arguments: cases)
  func hostileScriptFailsWithTypedErrorAndVMStaysUsable(_ c: Case) throws {
    let vm = try makeVM(instructions: c.instructions)
    let sandbox = try vm.makeSandbox(.init(root: Self.folder))
    let script = try sandbox.loadFile(c.file)
    let error = try #require(throws: LuaError.self) { try script.call() }
    #expect(error.kind == c.kind, "\(error)")
    #expect(error.message == c.message)
    let normal = try sandbox.load("local t = {} for i = 1, 100 do t[i] = i end return #t", chunkName: "normal.lua")
    #expect(try normal.call() == [100])
  }

  @Test func corpusHasAFileForEveryCase() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".lua") }
    #expect(Set(files) == Set(Self.cases.map(\.file)))
  }
}
