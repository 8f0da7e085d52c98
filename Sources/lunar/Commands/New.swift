import ArgumentParser
import Foundation
import LuaFeatures
import LunarHostSupport

/// `lunar new NAME`: scaffolds a feature with a passing test.
struct New: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Create NAME/feature.lua and NAME/NAME_test.lua, ready to run and test.",
    discussion: """
      The new feature counts, and its test passes at once:
        lunar new timer && lunar test timer && lunar run timer

      NAME/.luarc.json points lua-language-server at definitions of the Lua API, written to \
      NAME/.lunar/types/: open the folder in an editor for completion and documentation. \
      NAME/.luacheckrc sets luacheck to the sandbox (no os, io, debug …) and skips the \
      definitions: run luacheck . in the folder.
      """
  )

  @Argument(help: "The feature's folder name: a letter, then letters, digits, _ and - (ASCII).")
  var name: String

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  func run() throws {
    let base = (name as NSString).lastPathComponent
    // NB: The name becomes a Lua identifier in the test file (`local MyFeature = require …`):
    //     it must start with a letter, and Lua names are ASCII.
    guard let first = base.first, first.isASCII, first.isLetter,
      base.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
    else {
      throw ValidationError("'\(name)' is not a usable name: start with a letter, then use letters, digits, _ and - (like my_feature)")
    }
    guard !FileManager.default.fileExists(atPath: name) else {
      throw ValidationError("\(name) already exists; pick another name")
    }
    let title = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    try FileManager.default.createDirectory(atPath: name, withIntermediateDirectories: true)
    try Scaffold.feature(title: title).write(toFile: "\(name)/feature.lua", atomically: true, encoding: .utf8)
    try Scaffold.test(title: title).write(toFile: "\(name)/\(base)_test.lua", atomically: true, encoding: .utf8)
    try Scaffold.editorSupport(in: name)
    print("created \(name)/feature.lua and \(name)/\(base)_test.lua")
    print("next: lunar test \(name)   ·   lunar run \(name)")
  }
}

enum Scaffold {
  /// Writes the definitions of the Lua API into `folder/.lunar/types/` and a `.luarc.json`
  /// pointing lua-language-server at them.
  static func editorSupport(in folder: String) throws {
    let types = "\(folder)/\(LuaEditorDefinitions.folder)"
    try FileManager.default.createDirectory(atPath: types, withIntermediateDirectories: true)
    for file in LuaEditorDefinitions.files {
      try file.text.write(toFile: "\(types)/\(file.name)", atomically: true, encoding: .utf8)
    }
    try LuaEditorDefinitions.luarc.write(toFile: "\(folder)/.luarc.json", atomically: true, encoding: .utf8)
    try luacheckrc.write(toFile: "\(folder)/.luacheckrc", atomically: true, encoding: .utf8)
  }

  /// luacheck's configuration for a feature's folder: Lua 5.4 without what the sandbox leaves out,
  /// the editor definitions (declarations, not code) skipped.
  static let luacheckrc = """
    -- luacheck configuration for a Lunar feature: run `luacheck .` in this folder.
    std = "lua54"
    -- Features and their tests run in Lunar's sandbox: Lua 5.4's base functions and `string`,
    -- `table`, `math`, `utf8`, but none of these (time and randomness come from `deps`).
    not_globals = { "io", "os", "debug", "package", "coroutine", "dofile", "loadfile", "warn" }
    -- Nothing assigns globals: modules come from `require` and return what they make.
    allow_defined = false
    allow_defined_top = false
    -- The definitions for editors (lua-language-server `---@meta` files) declare, never run.
    exclude_files = { ".lunar/**" }

    """

  static func feature(title: String) -> String {
    """
    -- \(title): a feature. Run it with `lunar run`, test it with `lunar test`.
    local lunar = require "lunar"
    local fx = lunar.fx

    return lunar.feature {
      name = "\(title)",
      initial = { count = 0 },

      -- Its actions and their fields ("string", "number", "integer", "boolean", "table" or "any";
      -- a `?` makes a field optional): any other action is refused, with the nearest name.
      actions = {
        increment = {},
        decrement = {},
        incrementLater = {},
      },

      reduce = function(state, action, deps)
        if action.type == "increment" then
          state.count = state.count + 1
        elseif action.type == "decrement" then
          state.count = state.count - 1
        elseif action.type == "incrementLater" then
          return fx.run(function(send)
            deps.clock.sleep(1)
            send { type = "increment" }
          end)
        end
      end,

      view = function(state)
        return "count: " .. state.count
      end,
    }

    """
  }

  static func test(title: String) -> String {
    """
    local test = require "lunar.test"
    local \(title) = require "feature"

    test("increment adds one", function()
      local store = test.store(\(title))
      store:send({ type = "increment" }, function(state) state.count = 1 end)
    end)

    test("incrementLater adds one after a second", function()
      local store = test.store(\(title))
      store:send({ type = "incrementLater" })
      store:advance(1)
      store:receive("increment", function(state) state.count = 1 end)
    end)

    """
  }
}
