import CLua
import CLuaShim
import Foundation

/// An isolated environment for one feature's scripts inside a ``LuaVM``.
///
/// ```swift
/// let sandbox = try vm.makeSandbox(.init(root: featureFolder, randomSeed: 42))
/// let main = try sandbox.loadFile("feature.lua")    // errors read "feature.lua:12: …"
/// let feature = try main.call(returning: LuaTable.self)
/// sandbox.loadedFiles                               // the files to watch for hot reload
/// ```
///
/// What a script sees:
/// - its own globals table (`_ENV`, also `_G`): sandboxes sharing a VM cannot see or change each
///   other's globals, and library tables (`string`, `table`, `math`, `utf8`, optionally
///   `coroutine`) are per-sandbox copies;
/// - the safe base functions: `assert error getmetatable ipairs next pairs pcall rawequal rawget
///   rawlen rawset select tonumber tostring type xpcall`, `setmetatable` (refusing `__gc`, whose
///   timing would break determinism), `collectgarbage("count")` only, `load` for text chunks only
///   (binary chunks are refused whatever the mode; this sandbox is the default environment),
///   `print` (to ``LuaVM/printHandler``; bytes that are not UTF-8 arrive as `\ddd` escapes, see
///   ``LuaString/printableText``). These are C functions, as stock Lua's are, and their errors
///   read as stock Lua's;
/// - `math.random`/`math.randomseed` backed by Lua's generator, which the host seeds
///   (``seedRandom(_:)``): seed `n` gives the sequence of stock Lua after `math.randomseed(n)`;
///   `math.randomseed()` without arguments returns to the host's seed (and returns it);
/// - `require(name)`: host modules (``LuaVM/registerModule(_:source:chunkName:)``) first, then
///   `name.lua` or `name/init.lua` inside ``Configuration/root`` (dots are folders). `..`, absolute
///   paths and symlinks leaving the folder are refused. Results are cached per sandbox;
///   ``resetModules()`` empties the cache for hot reload. A module whose load failed can be
///   required again. `require "string"` (`table`, `math`, `utf8`) returns the sandbox's library.
///
/// What common pure-Lua libraries read when they load is offered (``Configuration/offersLibraryShims``):
/// `package.config`, `package.path`, `package.cpath`, `io.write`, `os.getenv` (always `nil`),
/// `os.time()` and `os.clock()`; nothing else of `io`, `os` or `package`. There is no `debug`,
/// `dofile`, `loadfile`, `warn`; the shared string metatable is hidden (`getmetatable("")` is `false`).
public final class LuaSandbox {
  /// How a sandbox is set up.
  public struct Configuration: Sendable {
    /// The folder `require` and ``LuaSandbox/loadFile(_:)`` resolve in; `nil` for none.
    public var root: URL?
    /// The seed of `math.random`.
    public var randomSeed: UInt64
    /// Whether scripts get the `coroutine` library. Off by default: a script's own coroutine would
    /// catch the yields of asynchronous host functions meant for the host.
    public var allowsCoroutines: Bool
    /// Whether scripts get what common pure-Lua libraries (Penlight, inspect, luassert-style code)
    /// read when they load, and nothing that reaches files, processes or the environment:
    /// `package.config`, `package.path` and `package.cpath` (strings), `io.write` (to
    /// ``LuaVM/printHandler``, one line a call), `os.getenv` (always `nil`), `os.time()` and
    /// `os.clock()` (from ``clock``). On by default; `false` leaves `package`, `io` and `os` out.
    public var offersLibraryShims: Bool
    /// The clock of the shims' `os.time()` (its whole seconds) and `os.clock()` (seconds since the
    /// sandbox was made), in seconds since 1970. A fixed clock makes a run replay exactly.
    public var clock: @Sendable () -> Double

    /// A configuration.
    public init(
      root: URL? = nil, randomSeed: UInt64 = 0, allowsCoroutines: Bool = false, offersLibraryShims: Bool = true,
      clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
      self.root = root
      self.randomSeed = randomSeed
      self.allowsCoroutines = allowsCoroutines
      self.offersLibraryShims = offersLibraryShims
      self.clock = clock
    }
  }

  /// The VM.
  public let vm: LuaVM
  /// The configuration it was made with.
  public let configuration: Configuration
  /// The sandbox's globals (`_ENV`).
  public let environment: LuaTable
  private let resetFunction: LuaFunction
  private let resolver: ModuleResolver
  private let randomFunction: LuaFunction
  private let randomState: UnsafeMutableRawPointer

  init(vm: LuaVM, configuration: Configuration) throws(LuaError) {
    self.vm = vm
    self.configuration = configuration
    let resolver = ModuleResolver(root: configuration.root)
    self.resolver = resolver
    let find = try vm.function(named: "require") { arguments in try resolver.find(arguments) }
    let print = try vm.function(named: "print") { arguments in
      arguments.vm.printHandler(try arguments.get(1, as: LuaString.self).printableText)
      return .none
    }
    var state: UnsafeMutableRawPointer?
    let status = lunar_pushrandom(vm.state, configuration.randomSeed, &state)
    guard status == LUA_OK, let state else { throw vm.takeError(status: status, from: vm.state) }
    let randomseed = LuaFunction(LuaRef(vm: vm, id: try vm.popReference(), type: .function))
    let random = LuaFunction(LuaRef(vm: vm, id: try vm.popReference(), type: .function))
    self.randomFunction = random
    self.randomState = state

    let factory = try vm.sandboxFactoryFunction()
    let environment: LuaTable
    let reset: LuaFunction
    let L = vm.state
    let base = lua_gettop(L)
    let clock = configuration.clock
    let now: LuaFunction? =
      configuration.offersLibraryShims ? try vm.function(named: "now") { _ in .values(clock()) } : nil
    if configuration.allowsCoroutines {
      _ = try vm.invoke(factory, find, print, random, randomseed, now, "string", "table", "math", "utf8", "coroutine", results: 2)
    } else {
      _ = try vm.invoke(factory, find, print, random, randomseed, now, "string", "table", "math", "utf8", results: 2)
    }
    defer { lua_settop(L, base) }
    environment = try LuaTable.read(from: LuaSlot(vm: vm, state: L, index: base + 1, root: "environment"))
    reset = try LuaFunction.read(from: LuaSlot(vm: vm, state: L, index: base + 2, root: "reset"))
    self.environment = environment
    self.resetFunction = reset
  }

  /// Compiles `source` in this sandbox.
  public func load(_ source: String, chunkName: String) throws(LuaError) -> LuaFunction {
    try vm.load(source, chunkName: chunkName, environment: environment)
  }

  /// Compiles the file at `relativePath` inside ``Configuration/root``, with the relative path as
  /// chunk name, and records it in ``loadedFiles``.
  ///
  /// - Throws: ``LuaError/Kind/misuse`` without a root, for a path leaving it, or a missing file;
  ///   ``LuaError/Kind/syntax`` if it does not compile.
  public func loadFile(_ relativePath: String) throws(LuaError) -> LuaFunction {
    guard let root = resolver.root else {
      throw LuaError(kind: .misuse, message: "this sandbox has no root folder to load '\(relativePath)' from")
    }
    guard !relativePath.hasPrefix("/"), !relativePath.split(separator: "/").contains(".."),
      let file = resolver.contained(relativePath, in: root)
    else {
      throw LuaError(kind: .misuse, message: "no file '\(relativePath)' inside \(root.path)")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw LuaError(kind: .misuse, message: "cannot read '\(file.path)'")
    }
    resolver.record(file)
    return try vm.load(bytes: data, chunkName: relativePath, environment: environment)
  }

  /// The files read by ``loadFile(_:)`` and `require` since the sandbox was made or
  /// ``resetModules()`` was called, in load order (absolute, symlinks resolved).
  public var loadedFiles: [URL] { resolver.loadedFiles }

  /// Empties `require`'s cache and ``loadedFiles``: the next `require` of each module loads it
  /// again from its current source (hot reload).
  public func resetModules() throws(LuaError) {
    try resetFunction.call()
    resolver.forgetFiles()
  }

  /// Reseeds `math.random` (the sequence then replays from the start for the same seed).
  public func seedRandom(_ seed: UInt64) {
    withExtendedLifetime(randomFunction) { lunar_random_seed(randomState, seed) }
  }
}

extension LuaVM {
  /// A new sandbox in this VM.
  public func makeSandbox(_ configuration: LuaSandbox.Configuration = .init()) throws(LuaError) -> LuaSandbox {
    try LuaSandbox(vm: self, configuration: configuration)
  }

  /// The prelude's `make_env`, compiled once per VM.
  func sandboxFactoryFunction() throws(LuaError) -> LuaFunction {
    if let id = sandboxFactory {
      return LuaFunction(LuaRef(vm: self, id: try retainedCopy(of: id), type: .function))
    }
    // NB: Lua/lunar/sandbox.lua, embedded at build time (Plugins/EmbedLua).
    let prelude = try load(EmbeddedLua.lunarSandbox.source, chunkName: EmbeddedLua.lunarSandbox.name)
    let status = lunar_push_sandbox_kit(state)
    guard status == LUA_OK else { throw takeError(status: status, from: state) }
    let kit = LuaTable(LuaRef(vm: self, id: try popReference(), type: .table))
    let factory = try call(prelude, kit, returning: LuaFunction.self)
    sandboxFactory = try retainedCopy(of: factory.reference.id)
    return factory
  }
}
