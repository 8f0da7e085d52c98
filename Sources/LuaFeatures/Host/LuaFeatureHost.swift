import Composable
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
/// A host is Lunar's ``FeatureEngine``: code written against that protocol (load, reducer,
/// render, migrate, the action gate, usage and limits) runs Lua features through it.
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
  /// (failing the test in progress, at the line of its `TestStore` step, or printed as a warning
  /// outside tests).
  public var onError: @MainActor (LuaFeatureError) -> Void = { error in
    reportAtTestStep(error.description)
  }
  /// Receives what a feature did that is likely a mistake but breaks nothing, such as an effect
  /// built in a reducer and not returned (it never runs). By default, reported as a warning
  /// (``LuaTestRunner`` counts them as failures; `lunar run` prints them).
  public var onWarning: @MainActor (LuaFeatureWarning) -> Void = { warning in
    reportAtTestStep(warning.description, severity: .warning)
  }
  /// The seed of `math.random` for features loaded from now on.
  public var randomSeed: UInt64
  /// The values features declare with `lunar.shared`, seen by every store of this host.
  public let shared: LuaSharedValues

  let prelude: Prelude
  /// Wakes effects waiting for a stream a test feeds.
  let streams = LuaStreamSignals()
  /// The scripts ``LuaScriptReducer``s loaded in this host, each loaded once.
  lazy var scripts = LuaScriptCache(host: self)

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

/// Reports `message` at the test's line that sent the action being reduced
/// (``Composable/EffectOrigin/testStep``), when a test store is reducing it, else here.
func reportAtTestStep(
  _ message: String, severity: IssueSeverity = .error,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
  let step = EffectOrigin.testStep
  reportIssue(
    message, severity: severity, fileID: step?.fileID ?? fileID, filePath: step?.filePath ?? filePath,
    line: step?.line ?? line, column: step?.column ?? column)
}

extension LuaFeatureHost {
  /// The names of the effects `lunar.fx` offers (`none`, `send`, `run`…), read from the module
  /// itself: what `lunar check` accepts after `fx.`.
  package var effectNames: [String] {
    get throws(LuaError) {
      guard let fx = prelude.api["lunar.fx"] else { return [] }
      let keys = try vm.load(
        "local names = {}\nfor name in pairs(...) do names[#names + 1] = name end\nreturn names",
        chunkName: "lunar.fx names")
      return try vm.call(keys, fx, returning: LuaValue.self).arrayValue?.compactMap(\.stringValue) ?? []
    }
  }
}
