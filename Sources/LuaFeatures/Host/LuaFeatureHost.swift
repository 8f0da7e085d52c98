import CLuaShim
import Foundation
import IssueReporting
import LuaBridge

/// A Lua VM set up to run features: the `lunar` module, the host's dependencies, and the limits
/// that keep a broken script from taking the host down.
///
/// ```swift
/// let host = try LuaFeatureHost()
/// let counter = try host.load(FeatureLocation(resolving: "examples/counter"))
/// let store = Store(initialState: counter.initialState) { counter.reducer() }
/// store.send(["type": "increment"])
/// ```
///
/// ## Isolation
///
/// A host and everything loaded from it live on the **main actor**, like ``Composable/Store``: a
/// Lua VM must only be touched by one thread, and the main actor is the owner every store already
/// uses. Effects run their Lua coroutines there too, between actions; only the asynchronous
/// dependencies they await run elsewhere.
///
/// > Important: Features sharing a host share its VM and memory ceiling, but never globals: each
/// > script runs in its own sandbox.
@MainActor
public final class LuaFeatureHost {
  /// The VM.
  public let vm: LuaVM
  /// The Swift functions features reach through `deps`. Changes apply to features loaded later.
  public var dependencies: LuaDependencies
  /// Receives every error of every feature of this host. By default, errors are reported as issues
  /// (failing the test in progress, or printed as a warning outside tests).
  public var onError: @MainActor (LuaFeatureError) -> Void = { error in
    reportIssue(error.description)
  }
  /// Receives what a feature did that is likely a mistake but breaks nothing, such as an effect
  /// built in a reducer and not returned (it never runs). By default, reported as a warning
  /// (``LuaTestRunner`` counts them as failures; `lunar run` prints them).
  public var onWarning: @MainActor (LuaFeatureWarning) -> Void = { warning in
    reportIssue(warning.description, severity: .warning)
  }
  /// The seed of `math.random` for features loaded from now on.
  public var randomSeed: UInt64
  /// The values features declare with `lunar.shared`, seen by every store of this host.
  public let shared: LuaSharedValues

  let prelude: Prelude

  /// Creates a host.
  ///
  /// - Parameters:
  ///   - limits: The VM's instruction budget per call and memory ceiling.
  ///   - dependencies: What `deps` holds.
  ///   - randomSeed: The seed of `math.random`.
  public init(
    limits: LuaVM.Limits = .default,
    dependencies: LuaDependencies = .builtIn,
    randomSeed: UInt64 = 0
  ) throws(LuaFeatureError) {
    do {
      self.vm = try LuaVM(limits: limits)
      self.prelude = try Prelude(vm: vm)
    } catch {
      throw LuaFeatureError(error, kind: .load, feature: "lunar")
    }
    self.dependencies = dependencies
    self.randomSeed = randomSeed
    self.shared = LuaSharedValues(dataDepth: limits.dataDepth)
    prelude.warnings.handler = { [weak self] message in
      self?.onWarning(LuaFeatureWarning(message))
    }
  }

  func report(_ error: LuaFeatureError) {
    onError(error)
  }

  /// The `deps` table for a feature instance: the host's functions, the feature's Lua `clients`,
  /// and `overrides` (Lua functions by dotted name), which win. With `testing`, client methods
  /// neither mocked nor in `realClients` fail when called.
  func makeDependencies(
    overrides: LuaTable? = nil, clients: LuaTable? = nil, testing: Bool = false, realClients: [String] = []
  ) throws(LuaError) -> LuaTable {
    let syncFunctions = try vm.newTable()
    var asyncNames: [LuaValue] = []
    for name in dependencies.names {
      switch dependencies.functions[name]! {
      case let .sync(function):
        let hostFunction = try vm.function(named: "deps.\(name)") { arguments in
          var values: [LuaValue] = []
          for position in 0..<arguments.count { values.append(try arguments.value(position + 1)) }
          return .value(try function(values))
        }
        try syncFunctions.set(name, hostFunction)
      case .async:
        asyncNames.append(.text(name))
      }
    }
    return try vm.call(
      prelude.makeDeps, syncFunctions, LuaValue.array(asyncNames), overrides, clients, testing,
      LuaValue.array(realClients.map { .text($0) }), returning: LuaTable.self)
  }
}

/// The prelude's host functions, held by reference so hot calls skip global lookups.
@MainActor
final class Prelude {
  let lunar: LuaTable
  /// The reducer transaction of the VM (begins, reports and closes each action's transaction).
  let transaction: StateTransaction
  let bind: LuaFunction
  /// The sandbox's `next`, which iterates a state proxy's table (see lunar/host.lua).
  let next: LuaFunction
  let valueAt: LuaFunction
  let takeHandle: LuaFunction
  let dropHandle: LuaFunction
  let effectBody: LuaFunction
  let isFeature: LuaFunction
  let makeDeps: LuaFunction
  let clientNames: LuaFunction
  let isManifest: LuaFunction
  let validateAction: LuaFunction
  let declaredTypes: LuaFunction
  let childKeys: LuaFunction
  let declares: LuaFunction
  let typesOfTree: LuaFunction
  let sendTag: String
  let callTag: String
  /// The functions of `lunar.test` the test runner drives.
  let testing: LuaTable
  /// Where the prelude's warnings go (the host sets it).
  let warnings = WarningSink()
  /// The tables of the Lua API, by the class names of the definitions for editors (`lunar`,
  /// `lunar.fx`, `lunar.test`, and the methods of `lunar.Feature`, `lunar.Effect` and
  /// `lunar.TestStore`): what ``LuaEditorDefinitions`` must declare.
  let api: [String: LuaTable]
  static let moduleGlobal = "__lunar_module"
  static let testModuleGlobal = "__lunar_test_module"

  init(vm: LuaVM) throws(LuaError) {
    // NB: in C: every fx.run names the line of its function, and a crossing into Swift for it
    //     cost half of what the rest of the effect's description does.
    let whereDefined = try vm.function(lunar_where_defined)
    let whereCalled = try vm.function(lunar_where_called)
    // NB: the files of Lua/lunar/, in order; each hands the next what it needs as arguments.
    let base = try vm.call(vm.load(EmbeddedLua.lunarInit), whereDefined, try LunarJSON.codec(in: vm), returning: LuaTable.self)
    let transaction = try StateTransaction(vm: vm)
    self.transaction = transaction
    let host = try vm.call(
      vm.load(EmbeddedLua.lunarHost), base, LuaValue.array([]), transaction.library, returning: LuaTable.self)
    try vm.call(vm.load(EmbeddedLua.lunarEffects), base, host)
    let warn = try vm.function(named: "warn") { [warnings] arguments in
      let message = try arguments.string(1)
      // NB: the handler records or prints; it never calls back into Lua.
      MainActor.assumeIsolated { warnings.handler?(message) }
      return .none
    }
    try vm.call(vm.load(EmbeddedLua.lunarLoose), base, host, whereCalled, warn)
    try vm.call(vm.load(EmbeddedLua.lunarFrames), base, host)
    try vm.call(vm.load(EmbeddedLua.lunarActions), base, host)
    let composition = try vm.call(vm.load(EmbeddedLua.lunarCompose), base, host, returning: LuaTable.self)
    try vm.call(vm.load(EmbeddedLua.lunarComposeRouting), base, host, composition)
    try vm.call(vm.load(EmbeddedLua.lunarComposeRemoval), base, host, composition)
    try vm.call(vm.load(EmbeddedLua.lunarClients), base, host)
    try vm.call(vm.load(EmbeddedLua.lunarPlugin), base, host)
    let tests = try vm.call(vm.load(EmbeddedLua.lunarTest), base, whereCalled, returning: LuaTable.self)

    self.lunar = try base.get("lunar", as: LuaTable.self)
    func function(_ name: String) throws(LuaError) -> LuaFunction {
      try host.get(name, as: LuaFunction.self)
    }
    self.bind = try function("bind")
    self.next = try function("next")
    self.valueAt = try function("valueAt")
    self.takeHandle = try function("takeHandle")
    self.dropHandle = try function("dropHandle")
    self.effectBody = try function("effectBody")
    self.isFeature = try function("isFeature")
    self.makeDeps = try function("makeDeps")
    self.clientNames = try function("clientNames")
    self.isManifest = try function("isManifest")
    self.validateAction = try function("validateAction")
    self.declaredTypes = try function("declaredTypes")
    self.childKeys = try function("childKeys")
    self.declares = try function("declares")
    self.typesOfTree = try function("typesOfTree")
    self.sendTag = try host.get("SEND", as: String.self)
    self.callTag = try host.get("CALL", as: String.self)
    self.testing = try tests.get("testing", as: LuaTable.self)
    let baseMethods = try base.get("methods", as: LuaTable.self)
    let testMethods = try tests.get("methods", as: LuaTable.self)
    self.api = [
      "lunar": lunar,
      "lunar.fx": try base.get("lunarTable", as: LuaTable.self).get("fx", as: LuaTable.self),
      "lunar.json": try base.get("lunarTable", as: LuaTable.self).get("json", as: LuaTable.self),
      "lunar.test": try tests.get("test", as: LuaTable.self),
      "lunar.Feature": try baseMethods.get("lunar.Feature", as: LuaTable.self),
      "lunar.Effect": try baseMethods.get("lunar.Effect", as: LuaTable.self),
      "lunar.TestStore": try testMethods.get("lunar.TestStore", as: LuaTable.self),
    ]

    // NB: The loaders find the modules through the VM's own globals (out of every sandbox's
    //     reach) rather than capturing them: a closure stored in the VM holding a reference to the
    //     VM would keep both alive forever.
    let globals = try vm.globals()
    try globals.set(Self.moduleGlobal, lunar)
    try globals.set(Self.testModuleGlobal, try tests.get("test", as: LuaTable.self))
    try vm.registerModule("lunar", loader: try base.get("newModule", as: LuaFunction.self))
    try vm.registerModule("lunar.test", loader: try Self.loader(vm, global: Self.testModuleGlobal))
  }

  private static func loader(_ vm: LuaVM, global: String) throws(LuaError) -> LuaFunction {
    try vm.function(named: "require") { arguments in
      .value(try arguments.vm.globals().get(global, as: LuaTable.self))
    }
  }
}

/// Where the prelude's warnings go: set by the host that owns the prelude (held weakly there, so
/// the VM's functions do not keep the host alive).
@MainActor
final class WarningSink {
  var handler: ((String) -> Void)?
}
