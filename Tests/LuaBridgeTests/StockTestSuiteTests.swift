import Foundation
import LuaBridge
import Testing

/// Lua 5.4.4's own test files (`Fixtures/testes`, adapted only where the sandbox removes a library
/// by design: see the README there) pass inside a sandbox, each `require`d by a script, and pass
/// in stock `lua5.4` on the same text.
@Suite struct StockTestSuiteTests {
  static let folder: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/testes")
    .standardizedFileURL.resolvingSymlinksInPath()

  static let files = ["pm", "strings", "sort", "tpack", "vararg", "math", "utf8"]

  /// `_soft` skips the tests the suite itself calls long or memory-hungry; `_port` the ones it
  /// calls not portable (locales).
  static let prologue = "_soft = true; _port = true"

  @Test(arguments: files)
  func luasOwnTestFilePassesInASandbox(_ name: String) throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: nil, memoryBytes: 512 << 20, timePerCall: nil, cpuTimePerCall: nil))
    vm.printHandler = { _ in }
    let sandbox = try vm.makeSandbox(.init(root: Self.folder))
    let values = try vm.call(sandbox.load("\(Self.prologue); require '\(name)'; return true", chunkName: "main.lua"))
    #expect(values == [true])
  }

  @Test(arguments: files)
  func theAdaptedTextPassesInStockLua(_ name: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["lua5.4", "-e", Self.prologue, "\(name).lua"]
    process.currentDirectoryURL = Self.folder
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "lua5.4 \(name).lua: \(message) (scripts/bootstrap installs lua5.4)")
  }
}
