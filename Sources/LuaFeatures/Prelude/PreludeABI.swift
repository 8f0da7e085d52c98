import LuaBridge

/// Everything the host calls in its Lua prelude, read once from the table the `lunar._abi` module
/// returns (`Lua/lunar/_abi.lua`). Swift looks nothing else up by name in the prelude's tables.
@MainActor
struct PreludeABI {
  /// The `lunar` module, read-only.
  let lunar: LuaTable
  /// Makes a fresh read-only `lunar` module for one sandbox (the loader of `require "lunar"`).
  let newModule: LuaFunction
  /// The `lunar.test` module.
  let test: LuaTable
  /// The functions of `lunar.test` the test runner drives.
  let testing: LuaTable
  /// `bind(reduce, deps)`: the function the transaction calls for one action of an instance.
  let bind: LuaFunction
  /// The sandbox's `next`, which iterates a state proxy's table (see lunar/_host.lua).
  let next: LuaFunction
  /// `valueAt(state, path)`: the value at `path` in a state table.
  let valueAt: LuaFunction
  /// `renderCopy(view, state)`: a feature's `view` of a copy of its resident state table.
  let renderCopy: LuaFunction
  /// `takeHandle(handle)`: the entry of an effect handle, removed from the pending ones.
  let takeHandle: LuaFunction
  /// `dropHandle(handle)`: forgets an effect handle that will never run.
  let dropHandle: LuaFunction
  /// `effectBody(entry)`: the function an effect's coroutine runs.
  let effectBody: LuaFunction
  /// `isFeature(value)`: whether a script returned a feature made by `lunar.feature`.
  let isFeature: LuaFunction
  /// `makeDeps(sync, asyncNames, overrides, clients, testing, real)`: a feature's `deps` table.
  let makeDeps: LuaFunction
  /// `clientNames(clients)`: the dotted names of the methods of a feature's clients, sorted.
  let clientNames: LuaFunction
  /// `isManifest(value)`: whether a value is a manifest made by `lunar.plugin`.
  let isManifest: LuaFunction
  /// `validateAction(feature, action)`: nil when the feature takes the action, else the problem.
  let validateAction: LuaFunction
  /// `declaredTypes(feature)`: the action types a feature declares, sorted.
  let declaredTypes: LuaFunction
  /// `childKeys(feature)`: the keys of a composed feature's children.
  let childKeys: LuaFunction
  /// `declares(feature)`: whether a feature (or a child of it) declares its actions.
  let declares: LuaFunction
  /// `typesOfTree(feature)`: the action types of a feature and its children, when all declare.
  let typesOfTree: LuaFunction
  /// `actionPaths(feature)`: every action a feature takes, at any depth, as paths and fields.
  let actionPaths: LuaFunction
  /// The tag an effect's coroutine yields with to send an action.
  let sendTag: String
  /// The tag an effect's coroutine yields with to call an asynchronous dependency.
  let callTag: String
  /// The tables of the Lua API, by the class names of the definitions for editors (`lunar`,
  /// `lunar.fx`, `lunar.json`, `lunar.test`, and the methods of `lunar.Feature`, `lunar.Effect`
  /// and `lunar.TestStore`): what ``LuaEditorDefinitions`` must declare.
  let api: [String: LuaTable]

  /// Reads the table `lunar._abi` returns; an entry missing or of the wrong type fails, naming it.
  init(_ table: LuaTable) throws(LuaError) {
    func entry<T: LuaReadable>(_ name: String, _ type: T.Type = T.self) throws(LuaError) -> T {
      do {
        return try table.get(name, as: T.self)
      } catch {
        throw LuaError(
          kind: .misuse,
          message: "lunar/_abi.lua: the prelude's ABI has no `\(name)` (\(T.self)): \(error.message)")
      }
    }
    lunar = try entry("lunar")
    newModule = try entry("newModule")
    test = try entry("test")
    testing = try entry("testing")
    bind = try entry("bind")
    next = try entry("next")
    valueAt = try entry("valueAt")
    renderCopy = try entry("renderCopy")
    takeHandle = try entry("takeHandle")
    dropHandle = try entry("dropHandle")
    effectBody = try entry("effectBody")
    isFeature = try entry("isFeature")
    makeDeps = try entry("makeDeps")
    clientNames = try entry("clientNames")
    isManifest = try entry("isManifest")
    validateAction = try entry("validateAction")
    declaredTypes = try entry("declaredTypes")
    childKeys = try entry("childKeys")
    declares = try entry("declares")
    typesOfTree = try entry("typesOfTree")
    actionPaths = try entry("actionPaths")
    sendTag = try entry("sendTag")
    callTag = try entry("callTag")
    let pairs: LuaTable = try entry("api")
    var api: [String: LuaTable] = [:]
    var index = 1
    while let pair = try pairs.get(index, as: LuaTable?.self) {
      let name = try pair.get(1, as: String.self)
      do {
        api[name] = try pair.get(2, as: LuaTable.self)
      } catch {
        throw LuaError(kind: .misuse, message: "lunar/_abi.lua: the prelude's ABI has no table for `api` \(name): \(error.message)")
      }
      index += 1
    }
    self.api = api
  }
}
