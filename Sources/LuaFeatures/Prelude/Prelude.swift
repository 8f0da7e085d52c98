import CLuaShim
import LuaBridge

/// The host's Lua prelude (`Lua/lunar/`), loaded into a VM: what the host calls in it, read once
/// into ``PreludeABI`` (`prelude.bind`, `prelude.validateAction`… are its fields), and the
/// reducer transaction it runs on.
///
/// The prelude's files are modules that `require` what they need (`require "lunar._host"`); the
/// private ones start with `_`. What only Swift and C can make is registered as private modules
/// before anything loads: `lunar._core` (the transaction's C half), `lunar._where` (`defined(fn)`
/// and `called(level)`, file and line), `lunar._warn`, `lunar._nearest` (the host's "did you mean"), `lunar._json` and
/// `lunar._emptyArray`.
/// That `require` lives in the VM's own globals (lunar/_require.lua), out of every sandbox's
/// reach: a feature's `require` finds its own folder, `lunar` and `lunar.test` only.
@MainActor
@dynamicMemberLookup
final class Prelude {
  /// What the host calls in the prelude.
  let abi: PreludeABI
  /// The reducer transaction of the VM (begins, reports and closes each action's transaction).
  let transaction: StateTransaction
  /// Where the prelude's warnings go (the host sets it).
  let warnings = WarningSink()

  /// The module the host reads the ABI from.
  nonisolated static let abiModule = "lunar._abi"
  /// The file holding the prelude's `require`: loaded by the host, never required.
  nonisolated static let requireFile = "lunar/_require.lua"
  nonisolated static let testModuleGlobal = "__lunar_test_module"

  /// The name a prelude file is required by: `lunar/_compose/routing.lua` is
  /// `lunar._compose.routing`, `lunar/_compose/init.lua` is `lunar._compose`.
  nonisolated static func moduleName(of file: EmbeddedLuaFile) -> String {
    var path = file.name.dropLast(".lua".count)
    if path.hasSuffix("/init") { path = path.dropLast("/init".count) }
    return path.split(separator: "/").joined(separator: ".")
  }

  /// The prelude's files: every embedded file under `lunar/`.
  nonisolated static let files: [EmbeddedLuaFile] = EmbeddedLua.all.filter { $0.name.hasPrefix("lunar/") }

  init(vm: LuaVM) throws(LuaError) {
    let transaction = try StateTransaction(vm: vm)
    self.transaction = transaction
    let loaded = try vm.newTable()
    try loaded.set("lunar._core", transaction.library)
    let locations = try vm.newTable()
    // NB: in C: every fx.run names the line of its function, and a crossing into Swift for it
    //     would cost half of what the rest of the effect's description does.
    try locations.set("defined", try vm.function(lunar_where_defined))
    try locations.set("called", try vm.function(lunar_where_called))
    try loaded.set("lunar._where", locations)
    try loaded.set("lunar._json", try LunarJSON.codec(in: vm))
    try loaded.set("lunar._emptyArray", LuaValue.array([]))
    try loaded.set("lunar._warn", try vm.function(named: "warn") { [warnings] arguments in
      let message = try arguments.string(1)
      // NB: the handler records or prints; it never calls back into Lua.
      MainActor.assumeIsolated { warnings.handler?(message) }
      return .none
    })

    try loaded.set("lunar._nearest", try vm.function(named: "nearest") { arguments in
      let name = try arguments.string(1)
      let names = try arguments.value(2).arrayValue?.compactMap(\.stringValue) ?? []
      return .value(LuaFeature.nearest(to: name, in: names).map(LuaValue.text) ?? .nil)
    })

    let chunks = try vm.newTable()
    var requireChunk: LuaFunction?
    for file in Self.files {
      if file.name == Self.requireFile {
        requireChunk = try vm.load(file)
      } else {
        try chunks.set(Self.moduleName(of: file), try vm.load(file))
      }
    }
    guard let requireChunk else {
      throw LuaError(kind: .misuse, message: "the prelude has no \(Self.requireFile)")
    }
    let require = try vm.call(requireChunk, loaded, chunks, returning: LuaFunction.self)
    let globals = try vm.globals()
    try globals.set("require", require)
    self.abi = try PreludeABI(try vm.call(require, Self.abiModule, returning: LuaTable.self))

    // NB: The loader finds the module through the VM's own globals (out of every sandbox's
    //     reach) rather than capturing it: a closure stored in the VM holding a reference to the
    //     VM would keep both alive forever.
    try globals.set(Self.testModuleGlobal, abi.test)
    try vm.registerModule("lunar", loader: abi.newModule)
    try vm.registerModule("lunar.test", loader: try vm.function(named: "require") { arguments in
      .value(try arguments.vm.globals().get(Self.testModuleGlobal, as: LuaTable.self))
    })
  }

  /// A field of the ABI: `prelude.bind` is `prelude.abi.bind`.
  subscript<Value>(dynamicMember field: KeyPath<PreludeABI, Value>) -> Value {
    abi[keyPath: field]
  }
}

/// Where the prelude's warnings go: set by the host that owns the prelude (held weakly there, so
/// the VM's functions do not keep the host alive).
@MainActor
final class WarningSink {
  var handler: ((String) -> Void)?
}
