import Composable
import ComposableTesting
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// The host's own Lua is real files (`Sources/LuaFeatures/Lua/`): errors in them name the real
/// file and line, and the definitions for editors declare exactly the API they export.
@MainActor
struct PreludeFileTests {
  static let luaFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Sources/LuaFeatures/Lua")

  /// The text of `name` (`lunar/_compose/forEach.lua`), read from the file itself.
  func source(_ name: String) throws -> String {
    try String(contentsOf: Self.luaFolder.appending(path: name), encoding: .utf8)
  }

  @Test func anErrorRaisedInThePreludeNamesTheAuthorsFeatureAndNoHostFrame() async throws {
    let harness = try FeatureHarness()
    let app = try harness.host.load(
      FeatureLocation(resolving: CompositionTests.folder.appendingPathComponent("app.lua").path))
    let store = TestStore(initialState: app.initialState) { app.reducer() }

    await store.send(CompositionTests.wrapped("todos", id: 42, ["type": "toggle"]))

    let error = try #require(harness.takeErrors().first)
    let reducer = try #require(line(of: "lunar.reduce(function", in: try String(
      contentsOf: CompositionTests.folder.appendingPathComponent("app.lua"), encoding: .utf8)))
    #expect(
      error.message == "app.lua:\(reducer): no element with id 42 in state.todos (it was removed, or the action names the wrong id)",
      "\(error)")
    #expect(error.location == "app.lua:\(reducer)")
    #expect(error.traceback?.contains("lunar/") != true, "\(error.traceback ?? "")")
  }

  @Test func theHostsLuaIsEmbeddedUnderItsRealNames() throws {
    for file in EmbeddedLua.all {
      #expect(try source(file.name) == file.source, "\(file.name)")
    }
  }

  @Test func everyPreludeFileIsAModuleNamedAfterItsPath() throws {
    let names = Prelude.files.map(Prelude.moduleName(of:))
    #expect(names.contains("lunar._base"))
    #expect(names.contains("lunar._compose"))
    #expect(names.contains("lunar._compose.forEach"))
    #expect(Set(names).count == names.count)
    #expect(LuaFeatureError.preludeChunks == Set(Prelude.files.map(\.name)))
    #expect(LuaFeatureError.preludeChunks.contains("lunar/_compose/removal.lua"))
  }

  @Test func everyPreludeModuleIsLoadedByTheABI() throws {
    let host = try LuaFeatureHost()
    // The prelude's `require` keeps what each module returned: requiring a module again returns
    // the very function the host's ABI read, and the private modules the host registered.
    let same = try host.vm.load(
      """
      local validate, library = ...
      return rawequal((require "lunar._abi").validateAction, validate), rawequal(require "lunar._core", library)
      """, chunkName: "same.lua")
    let answers = try host.vm.call(same, host.prelude.validateAction, host.prelude.transaction.library)
    #expect(answers == [true, true])
  }

  @Test func anABIWithoutAnEntryFailsNamingIt() throws {
    let host = try LuaFeatureHost()
    let copy = try host.vm.load(
      """
      local t = {}
      for key, value in pairs(require "lunar._abi") do t[key] = value end
      t.bind = nil
      return t
      """, chunkName: "copy.lua")
    let table = try host.vm.call(copy, returning: LuaTable.self)
    #expect {
      _ = try PreludeABI(table)
    } throws: { error in
      (error as? LuaError)?.message.hasPrefix("lunar/_abi.lua: the prelude's ABI has no `bind` (LuaFunction)") == true
    }
  }

  @Test func requiringAnUnknownPreludeModuleFailsNamingIt() throws {
    let host = try LuaFeatureHost()
    let probe = try host.vm.load("local nothing = require 'lunar._nothing'\nreturn nothing", chunkName: "probe.lua")
    #expect {
      try host.vm.call(probe)
    } throws: { error in
      (error as? LuaError)?.message == "probe.lua:1: no module lunar._nothing in the prelude"
    }
  }

  @Test func everyLunarFunctionIsDeclaredForEditors() throws {
    let host = try LuaFeatureHost()
    let definitions = Definitions(files: LuaEditorDefinitions.files.map { ($0.name, $0.text) })
    #expect(definitions.strays.isEmpty, "functions of no declared class: \(definitions.strays)")

    for (name, table) in host.prelude.api {
      let (functions, values) = try exports(of: table, in: host.vm)
      let declared = try #require(definitions.classes[name], "no ---@class \(name)")
      #expect(declared.functions == functions, "\(name): declared \(declared.functions.sorted()), exported \(functions.sorted())")
      #expect(Set(declared.fields.keys) == values, "\(name): declared fields \(declared.fields.keys.sorted()), exported \(values.sorted())")
    }

    let deps = try #require(definitions.classes["lunar.Deps"])
    var declaredDeps = deps.functions
    for (field, type) in deps.fields {
      for function in definitions.classes[type]?.functions ?? [] { declaredDeps.insert("\(field).\(function)") }
    }
    var offered = LuaDependencies.builtIn
    let folder = FileManager.default.temporaryDirectory
    offered.offer(.http(.live))
    offered.offer(.files(in: folder))
    offered.offer(.storage(file: folder.appendingPathComponent("unused.json"), fileStorage: .inMemory()))
    #expect(declaredDeps == Set(offered.names))

    let withFunctions = Set(definitions.classes.filter { !$0.value.functions.isEmpty }.keys)
    let described = Set(host.prelude.api.keys).union(["lunar.Deps"]).union(deps.fields.values)
    #expect(withFunctions.isSubset(of: described), "functions declared on \(withFunctions.subtracting(described).sorted())")
  }

  /// The string keys of `table` (metamethods aside): those holding functions, and the others.
  func exports(of table: LuaTable, in vm: LuaVM) throws -> (functions: Set<String>, values: Set<String>) {
    let list = try vm.load(
      """
      local functions, values = {}, {}
      for key, value in pairs(...) do
        if type(key) == "string" and key:sub(1, 2) ~= "__" then
          local into = type(value) == "function" and functions or values
          into[#into + 1] = key
        end
      end
      return table.concat(functions, " "), table.concat(values, " ")
      """, chunkName: "exports.lua")
    let names = try vm.call(list, table).map { value in
      Set((value.stringValue ?? "").split(separator: " ").map(String.init))
    }
    return (names[0], names[1])
  }
}
