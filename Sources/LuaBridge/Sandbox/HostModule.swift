/// A module the host provides to every sandbox's `require`, ahead of the feature's own files.
enum HostModule {
  /// Lua source, compiled afresh in each requiring sandbox (so sandboxes never share its tables).
  case source(String, chunkName: String)
  /// A function (held by raw registry id) called as `loader(name, origin)` in each requiring
  /// sandbox; what it returns is the module.
  case loader(Int32)
}

extension LuaVM {
  /// Makes `require(name)` load `source` in every sandbox of this VM, compiled in the requiring
  /// sandbox's environment. Host modules win over files of the same name.
  ///
  /// ```swift
  /// try vm.registerModule("lunar", source: lunarSource, chunkName: "lunar.lua")
  /// // in a feature: local lunar = require "lunar"
  /// ```
  public func registerModule(_ name: String, source: String, chunkName: String) {
    hostModules[name] = .source(source, chunkName: chunkName)
  }

  /// Makes `require(name)` call `loader(name, "host")` in the requiring sandbox and return what it
  /// returns (a table built in Swift, for example); called once per sandbox.
  public func registerModule(_ name: String, loader: LuaFunction) throws(LuaError) {
    guard ObjectIdentifier(loader.vm) == ObjectIdentifier(self) else {
      throw LuaError(kind: .misuse, message: "the loader belongs to another LuaVM")
    }
    // NB: the VM keeps a raw registry id, not a LuaRef, which would keep the VM alive forever.
    try push(loader)
    let id = try popReference()
    if case .loader(let old) = hostModules[name] { unreference(old) }
    hostModules[name] = .loader(id)
  }

  /// The names of the registered host modules.
  public var hostModuleNames: [String] { hostModules.keys.sorted() }
}
