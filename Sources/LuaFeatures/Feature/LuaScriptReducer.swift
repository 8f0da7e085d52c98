import Composable
import Dependencies
import Foundation
import LuaBridge

/// A Lua feature named by its script, as a reducer you build where TCA builds children: inside a
/// parent's `body`.
///
/// ```swift
/// struct Notes: Reducer {
///   struct State: Equatable { var titles: [String] = []; var editor: LuaState }
///   enum Action: Sendable, CasePathable { case add(String), editor(LuaValue) /* … */ }
///
///   var body: some ReducerOf<Self> {
///     Scope(state: \.editor, action: \.editor) { LuaScriptReducer("Editor", in: .module) }
///     Reduce { state, action in … }
///   }
/// }
///
/// let editor = try LuaScriptReducer("Editor", in: .module).initialState()
/// let store = Store(initialState: Notes.State(editor: editor)) { Notes() }
/// ```
///
/// It is only a description, cheap to build each time `body` is evaluated, from any thread. What
/// it describes is made once and shared:
///
/// - **The script** is loaded once per host, the first time any store needs it, and kept by the
///   host (keyed by where the script is): every store, every state and every evaluation of `body`
///   runs that one loaded feature.
/// - **The running instance** (the state resident in Lua, `deps`, running effects) belongs to the
///   state: the first action a ``LuaState`` gets makes its instance, and it stays with that state
///   (and its copies) from then on. Two stores, or two elements of a `ForEach`, never share one.
///
/// The host is ``Dependencies/DependencyValues/luaFeatureHost``, as the store's dependencies have
/// it when the instance is made; by default, one host made for the whole process.
///
/// A script that cannot be loaded (missing, a syntax error, an error while loading) is an error of
/// the host (``LuaFeatureHost/onError``: an issue failing the test at its `send` line by default),
/// with the script's `file:line` and the line of the `LuaScriptReducer` that named it; the action
/// is not reduced. Actions are checked against the feature's declared actions, as ``LuaReducer``
/// checks them.
///
/// > Important: The instance lives with the state. Replacing the whole state with a new
/// > ``LuaState`` (such as `initialState()` again) makes a new instance at the next action, with
/// > fresh `deps`; effects of the old one run to their end. Setting ``LuaState/value`` keeps the
/// > instance. A state copied from one store into another takes its instance along: start a new
/// > store from `initialState()` instead.
///
/// ``LuaFeature/reducer(dependencyOverrides:testing:realClients:)`` stays for what this form does
/// not do: Lua `deps` overrides and test mode, a host of the caller's choosing per reducer, a
/// feature loaded from source text, and hot reload with ``HotReloader``. There is no typed form of
/// it: a typed state is your `Codable` value, which has no place to keep its instance in; use
/// ``LuaFeature/typedReducer(of:_:dependencyOverrides:)``, made once per store.
public struct LuaScriptReducer: Reducer, Sendable {
  /// Where the script is.
  public let script: LuaScriptLocation
  /// Where this reducer was written, for errors.
  let declaredAt: (fileID: StaticString, line: UInt)

  /// The feature whose script is at `path` in `bundle`'s resources (`Bundle.module` for a
  /// package's own), or relative to the current directory without a bundle.
  ///
  /// - Parameter path: A `.lua` file, or a folder holding `feature.lua` or `main.lua` (`require`
  ///   then finds modules in that folder): copy the folder with `resources: [.copy("Editor")]`.
  public init(_ path: String, in bundle: Bundle? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
    self.script = LuaScriptLocation(path: path, bundle: bundle)
    self.declaredAt = (fileID, line)
  }

  /// Reduces `action` with `state`'s instance, made (and the script loaded, if no state loaded it
  /// yet) at the state's first action.
  public func reduce(into state: inout LuaState, action: LuaValue) -> Effect<LuaValue> {
    if let owner = state.owner, owner.script == script { return owner.reducer.reduce(into: &state, action: action) }
    return MainActor.assumeIsolated { firstAction(&state, action) }
  }

  /// Makes `state`'s instance, then reduces `action` with it; on a load error, reports it and
  /// leaves `state` as it is.
  @MainActor
  private func firstAction(_ state: inout LuaState, _ action: LuaValue) -> Effect<LuaValue> {
    let host: LuaFeatureHost
    do {
      host = try Self.host(nil)
    } catch {
      reportAtTestStep("\(located(error).description)\n  the action was not reduced")
      return .none
    }
    do {
      let owner = try host.scripts.instance(of: script, locating: located)
      state.owner = owner
      return owner.reducer.reduce(into: &state, action: action)
    } catch {
      var error = error
      error.action = action
      error.message += "\n  the action was not reduced"
      host.report(error)
      return .none
    }
  }

  /// The feature the script declares, loaded by `host` (by default the store dependencies' host,
  /// see ``Dependencies/DependencyValues/luaFeatureHost``), once: the loaded feature every store
  /// of that host runs.
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load`: the script is missing, does not compile, fails
  ///   while loading or does not return `lunar.feature { … }` (with its `file:line`, and this
  ///   reducer's line).
  @MainActor public func feature(in host: LuaFeatureHost? = nil) throws(LuaFeatureError) -> LuaFeature {
    try Self.host(host).scripts.feature(of: script, locating: located)
  }

  /// The feature's initial state, to start a store or a parent's state from (see
  /// ``LuaFeature/initialState``). A new ``LuaState`` each call, with no instance yet.
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load`, as ``feature(in:)``.
  @MainActor public func initialState(in host: LuaFeatureHost? = nil) throws(LuaFeatureError) -> LuaState {
    try feature(in: host).initialState
  }

  /// The feature's view of `state` (``LuaReducer/render(_:)`` of the state's instance), or `nil`
  /// without a `view`.
  ///
  /// - Throws: ``LuaFeatureError``: of kind `.view` when `view` fails, `.load` as ``feature(in:)``.
  @MainActor public func render(_ state: LuaState, in host: LuaFeatureHost? = nil) throws(LuaFeatureError) -> String? {
    if let owner = state.owner, owner.script == script { return try owner.reducer.render(state) }
    return try feature(in: host).render(state)
  }

  /// `error` naming this reducer's line.
  func located(_ error: LuaFeatureError) -> LuaFeatureError {
    var error = error
    error.message += "\n  script of LuaScriptReducer(\"\(script.path)\") at \(declaredAt.fileID):\(declaredAt.line)"
    return error
  }

  /// `host`, or the one the current dependencies name, or the process's own.
  @MainActor private static func host(_ host: LuaFeatureHost?) throws(LuaFeatureError) -> LuaFeatureHost {
    if let host { return host }
    @Dependency(\.luaFeatureHost) var chosen
    if let chosen { return chosen }
    return try LuaFeatureHost.processDefault()
  }
}
