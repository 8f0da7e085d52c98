import Foundation
import LuaBridge

/// A feature loaded from a Lua script: its name, initial state, reducer, and optional view and
/// migration.
///
/// ```swift
/// let host = try LuaFeatureHost()
/// let counter = try host.load(FeatureLocation(resolving: "examples/counter"))
/// let store = Store(initialState: counter.initialState) { counter.reducer() }
/// ```
///
/// Load it with ``LuaFeatureHost/load(_:)`` or ``LuaFeatureHost/load(source:chunkName:root:)``.
@MainActor
public final class LuaFeature {
  /// The `name` the script gave.
  public let name: String
  /// The script's `initial` state.
  ///
  /// A feature loaded by ``LuaFeatureHost/reload(_:)`` reads it from Lua only when asked: a hot
  /// reload keeps the running state, and never needs it. If it is not data then, the error goes to
  /// the host's ``LuaFeatureHost/onError`` and the state is empty.
  ///
  /// An `initial` that is a function of `deps` is called with a fresh set of the host's
  /// dependencies each time; a store that has its own (a test store) builds it with them instead.
  public var initialValue: LuaValue {
    if let initialRead { return initialRead }
    do {
      guard case let .table(table) = initial else {
        return try initialValue { () throws(LuaError) in try host.makeDependencies(clients: clients) }
      }
      let value = try Self.writable(try table.value())
      initialRead = value
      return value
    } catch {
      host.report(LuaFeatureError(error, kind: .load, feature: name))
      if case .table = initial { initialRead = .table([:]) }
      return .table([:])
    }
  }

  /// `initial` built with `deps` (a function of them; `deps` is asked for only then), or read (a
  /// table).
  func initialValue(deps: () throws(LuaError) -> LuaTable) throws(LuaError) -> LuaValue {
    switch initial {
    case .table: return initialValue
    case let .function(make): return try Self.writable(try host.vm.call(make, try deps(), returning: LuaValue.self))
    }
  }

  /// The script's `initial`: a state table, or a function(deps) returning one.
  private enum Initial {
    case table(LuaTable)
    case function(LuaFunction)
  }
  private let initial: Initial
  private var initialRead: LuaValue?
  /// Where it was loaded from, when it came from a file.
  public let location: FeatureLocation?
  /// The files the script loaded (itself and what it `require`d): what hot reload watches.
  public let loadedFiles: [URL]
  /// `file:line` of its `reduce` function.
  public let origin: String
  /// The methods of the Lua clients it uses, its children's included (`clients = { … }`), as dotted
  /// names: `["factClient.fetch"]`.
  public let clientNames: [String]
  /// The fields of its state bound to shared keys (`shared = { field = lunar.shared(…) }`).
  let sharedFields: [LuaSharedField]
  /// Its clients (the prelude's list), placed in each instance's `deps`.
  let clients: LuaTable?

  let host: LuaFeatureHost
  let sandbox: LuaSandbox
  /// The table `lunar.feature` made.
  let table: LuaTable
  /// Whether the feature, or a feature of its body, declares its actions (`actions = { … }`):
  /// only then are the actions it takes checked.
  public let declaresActions: Bool
  let reduce: LuaFunction
  let view: LuaFunction?
  let migrate: LuaFunction?

  init(
    host: LuaFeatureHost, sandbox: LuaSandbox, table: LuaTable, location: FeatureLocation?, lazyInitial: Bool = false
  ) throws(LuaError) {
    self.host = host
    self.sandbox = sandbox
    self.table = table
    self.declaresActions = try host.vm.call(host.prelude.declares, table, returning: Bool.self)
    self.location = location
    self.name = try table.get("name", as: String.self)
    let initial = try table.get("initial", as: LuaRef.self)
    if let function = initial.function {
      self.initial = .function(function)
      self.initialRead = LuaValue?.none
    } else {
      let initialTable = try table.get("initial", as: LuaTable.self)
      self.initial = .table(initialTable)
      // NB: a first load reads `initial` now, so that a state that is not data fails the load.
      // NB: `LuaValue?.none`, not `nil`: LuaValue takes a nil literal, which would read as Lua's nil.
      self.initialRead = lazyInitial ? LuaValue?.none : try Self.writable(try initialTable.value())
    }
    self.reduce = try table.get("reduce", as: LuaFunction.self)
    self.view = try table.get("view", as: LuaFunction?.self)
    self.migrate = try table.get("migrate", as: LuaFunction?.self)
    self.origin = try table.get("origin", as: String.self)
    self.loadedFiles = sandbox.loadedFiles
    self.clients = try table.get("usedClients", as: LuaTable?.self)
    let names = try host.vm.call(host.prelude.clientNames, clients, returning: LuaValue.self)
    self.clientNames = (names.arrayValue ?? []).compactMap(\.stringValue)
    self.sharedFields = try LuaSharedField.parse(try table.get("sharedFields"), feature: name)
    if !sharedFields.isEmpty { try host.shared.declare(sharedFields, feature: name) }
  }

  /// `initial`, when JSON can write it: state leaves Lua as JSON (events, recordings, saved files),
  /// so NaN, the infinities and text that is not UTF-8 fail the load, as they fail a write.
  static func writable(_ initial: LuaValue) throws(LuaError) -> LuaValue {
    do {
      _ = try LuaJSONEncoder().encode(initial, root: "initial")
    } catch {
      throw LuaError(kind: .conversion, message: "the initial state cannot be written as JSON: \(error)")
    }
    return initial
  }

  /// The initial state, ready for a store: `initial`, with each shared field holding the current
  /// shared value.
  public var initialState: LuaState { LuaState(withSharedValues(initialValue)) }

  /// A state to start a store from that is not the feature's `initial`: `state`, whose shared
  /// fields are first written into the shared values (so every store of the host sees them).
  ///
  /// ```swift
  /// host.shared.reset(fileStorage: .inMemory())       // never read or write the user's files
  /// let store = Store(initialState: feature.initialState(startingFrom: recorded)) { feature.reducer() }
  /// ```
  ///
  /// > Important: With file storage, the values are saved: reset the host's shared values to an
  /// > in-memory storage first unless that is what you want.
  public func initialState(startingFrom state: LuaValue) -> LuaState {
    LuaState(withSharedValues(state, seeding: true))
  }

  /// `state` with each shared field holding the current shared value.
  ///
  /// - Parameter seeding: Write the shared fields `state` has into the shared values first (a test
  ///   store created with an explicit initial state).
  func withSharedValues(_ state: LuaValue, seeding: Bool = false) -> LuaValue {
    guard !sharedFields.isEmpty, case .table = state else { return state }
    var state = state
    // NB: in order, the root's fields first: a collection is seeded before its elements are read.
    //     A key is seeded once, from its first place holding something other than its default:
    //     a child the test built with `initialWith` carries the default, not the test's value.
    var seeded: Set<String> = []
    for field in sharedFields {
      guard let slot = host.shared.slot(for: field) else { continue }
      let locations = field.locations(in: state)
      if seeding, !field.element, !seeded.contains(field.key),
        let given = locations.lazy.compactMap({ state.value(at: $0) }).first(where: { !$0.isNil && $0 != field.defaultValue }),
        given != slot.value
      {
        seeded.insert(field.key)
        // NB: a test store's initial state that cannot be saved keeps the shared value, and says so.
        do {
          _ = try slot.write(given, field: field.field)
        } catch {
          host.report(LuaFeatureError(kind: .reducer, feature: name, message: error.description))
        }
      }
      let shared = slot.value
      for location in locations {
        guard let value = field.current(at: location, in: state, shared: shared) else { continue }
        state.apply(.setField(path: Array(location.dropLast()), key: field.field, value: value), reread: nil)
      }
    }
    return state
  }

  /// A reducer running this feature. Each call makes a new instance, with its own resident state
  /// and dependencies: give each store its own.
  ///
  /// - Parameters:
  ///   - dependencyOverrides: Lua functions replacing dependencies by dotted name, for tests. A
  ///     name the feature does not have is an error when the first action runs.
  ///   - testing: Whether this reducer runs in a test: then a Lua client method that is neither
  ///     overridden nor its client listed in `realClients` fails when called.
  ///   - realClients: In a test, the clients that run for real (which then reach the host's
  ///     capabilities).
  public func reducer(
    dependencyOverrides: LuaTable? = nil, testing: Bool = false, realClients: [String] = []
  ) -> LuaReducer {
    LuaReducer(instance: LuaFeatureInstance(
      feature: self, dependencyOverrides: dependencyOverrides, testing: testing, realClients: realClients))
  }

  /// The feature's own text rendering of `state` (its `view` function), or `nil` without one.
  ///
  /// `state` is pushed into the VM whole for the call; a store's reducer renders its own state
  /// from the resident table instead (``LuaReducer/render(_:)``).
  ///
  /// - Throws: ``LuaFeatureError`` when `view` fails or returns something other than a string.
  public func render(_ state: LuaState) throws(LuaFeatureError) -> String? {
    try renderView { view throws(LuaError) in try host.vm.call(view, state.value, returning: String?.self) }
  }

  /// The view of a copy of `resident`, a reducer's resident state table, made in the VM.
  func render(resident: LuaTable) throws(LuaFeatureError) -> String? {
    try renderView { view throws(LuaError) in
      try host.vm.call(host.prelude.renderCopy, view, resident, returning: String?.self)
    }
  }

  /// Calls `view` through `call`, checking that it returned a string.
  private func renderView(_ call: (LuaFunction) throws(LuaError) -> String?) throws(LuaFeatureError) -> String? {
    guard let view else { return nil }
    do {
      guard let text = try call(view) else {
        throw LuaFeatureError(kind: .view, feature: name, message: "view(state) must return a string")
      }
      return text
    } catch let error as LuaError {
      throw LuaFeatureError(error, kind: .view, feature: name)
    } catch {
      throw error as! LuaFeatureError
    }
  }
}

extension LuaFeatureHost {
  /// Loads the feature at `location` in a fresh sandbox rooted at its folder.
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load`: a syntax error (with `file:line`), an error
  ///   raised while loading, or a script that does not return `lunar.feature { … }`.
  public func load(_ location: FeatureLocation) throws(LuaFeatureError) -> LuaFeature {
    try load(location, lazyInitial: false)
  }

  /// Loads the feature at `location`; with `lazyInitial`, its `initial` state is read from Lua only
  /// when asked for (a reload that keeps the running state).
  func load(_ location: FeatureLocation, lazyInitial: Bool) throws(LuaFeatureError) -> LuaFeature {
    let name = location.script.lastPathComponent
    do {
      let sandbox = try makeFeatureSandbox(root: location.root)
      let chunk = try sandbox.loadFile(name)
      return try finishLoading(chunk, sandbox: sandbox, chunkName: name, location: location, lazyInitial: lazyInitial)
    } catch let error as LuaError {
      throw LuaFeatureError(error, kind: .load, feature: name)
        .located(in: name, source: try? String(contentsOf: location.script, encoding: .utf8))
    } catch {
      throw error as! LuaFeatureError
    }
  }

  /// Loads a feature from source text (for tests and embedding hosts).
  ///
  /// - Parameters:
  ///   - chunkName: How errors name the script (`counter.lua:12:`).
  ///   - root: The folder `require` resolves modules in, if any.
  public func load(source: String, chunkName: String, root: URL? = nil) throws(LuaFeatureError) -> LuaFeature {
    do {
      let sandbox = try makeFeatureSandbox(root: root)
      let chunk = try sandbox.load(source, chunkName: chunkName)
      return try finishLoading(chunk, sandbox: sandbox, chunkName: chunkName, location: nil)
    } catch let error as LuaError {
      throw LuaFeatureError(error, kind: .load, feature: chunkName).located(in: chunkName, source: source)
    } catch {
      throw error as! LuaFeatureError
    }
  }

  /// A sandbox for a feature's scripts: `next` iterates a state proxy's table, as `pairs` does.
  private func makeFeatureSandbox(root: URL?) throws(LuaError) -> LuaSandbox {
    let sandbox = try vm.makeSandbox(.init(root: root, randomSeed: randomSeed))
    try sandbox.environment.set("next", prelude.next)
    return sandbox
  }

  private func finishLoading(
    _ chunk: LuaFunction, sandbox: LuaSandbox, chunkName: String, location: FeatureLocation?, lazyInitial: Bool = false
  ) throws -> LuaFeature {
    let result = try vm.call(chunk, returning: LuaRef?.self)
    guard let result, try vm.call(prelude.isFeature, result, returning: Bool.self), let table = result.table else {
      let got = try result.map { ref throws(LuaError) in ref.type.rawValue } ?? "nothing"
      throw LuaFeatureError(
        kind: .load, feature: chunkName,
        message: "\(chunkName) must return lunar.feature { name = …, initial = {…}, reduce = function … }, but returned \(got)",
        file: chunkName
      )
    }
    return try LuaFeature(host: self, sandbox: sandbox, table: table, location: location, lazyInitial: lazyInitial)
  }
}
