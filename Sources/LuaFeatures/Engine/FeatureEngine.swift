import Composable
import LuaBridge

/// What a feature engine does for a host, in one place: load a feature, make the reducer that
/// reduces each action into a transaction, render a state with the feature's view, migrate a kept
/// state on reload, check an action before it is sent, and account for what it uses.
///
/// A host written against `FeatureEngine` runs features without knowing how they are written.
/// ``LuaFeatureHost`` is Lunar's engine (one Lua VM):
///
/// ```swift
/// @MainActor
/// func serve<Engine: FeatureEngine>(_ engine: Engine, at location: FeatureLocation) throws(LuaFeatureError) {
///   let feature = try engine.load(location)
///   let reducer = engine.reducer(for: feature)
///   let store = Store(initialState: engine.initialState(of: feature)) { reducer }
///   store.send(["type": "increment"])
///   print(try engine.render(store.state, with: reducer) ?? "(no view)")
///   print(engine.usage.memoryInUse)
/// }
/// try serve(LuaFeatureHost(), at: FeatureLocation(resolving: "examples/counter"))
/// ```
///
/// The protocol is the host's **control path**: loading, reloading, rendering, checking input and
/// reading the accounts happen a few times per user gesture. The per-action path is the reducer
/// itself (``FeatureReducer``), which a store calls directly: going through the protocol costs an
/// action nothing.
///
/// > Important: An engine and everything it loads live on the main actor, like `Store`: a VM is
/// > only ever touched by one thread.
@MainActor
public protocol FeatureEngine: AnyObject {
  /// A loaded version of a feature: what ``load(_:)`` and ``reload(_:)`` return, and what the
  /// other requirements take to know which feature they serve.
  associatedtype Feature: AnyObject
  /// The reducer a store runs for a feature: each action is reduced into a transaction, committed
  /// when the feature's reducer returns and rolled back, with the error reported, when it fails.
  associatedtype FeatureReducer: Reducer<LuaState, LuaValue>
  /// The limits the engine enforces on the code it runs (for Lua: instructions, time and memory
  /// per call, and the depth of data).
  associatedtype Limits

  /// Loads the feature at `location`.
  ///
  /// ```swift
  /// let counter = try engine.load(FeatureLocation(resolving: "examples/counter"))
  /// ```
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load`, with `file:line` when the script has one.
  ///
  /// > Important: Each call loads anew, in a fresh sandbox: two loads of one location are two
  /// > features, and a reducer of one cannot be migrated to the other's reload unless they come
  /// > from the same engine.
  func load(_ location: FeatureLocation) throws(LuaFeatureError) -> Feature

  /// Loads `feature` again from where it was loaded, as it is there now, leaving `feature` as it
  /// was: it keeps serving its reducers until they are migrated to the new version
  /// (``migrate(_:to:)``).
  ///
  /// ```swift
  /// let newer = try engine.reload(counter)        // the script was edited
  /// try engine.migrate(reducer, to: newer)        // the next action runs the new code
  /// ```
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load` when the new version does not load, or when
  ///   `feature` was not loaded from a location.
  func reload(_ feature: Feature) throws(LuaFeatureError) -> Feature

  /// The state a store of `feature` starts from.
  ///
  /// ```swift
  /// engine.initialState(of: counter).count        // 0
  /// ```
  ///
  /// > Important: Read it when you make a store, not once for all: it holds the current values
  /// > of the feature's shared fields, which other stores may have changed since.
  func initialState(of feature: Feature) -> LuaState

  /// A new reducer running `feature`, for one store: it reduces each action into a transaction
  /// (commit or rollback) and describes the effects to run.
  ///
  /// ```swift
  /// let store = Store(initialState: engine.initialState(of: counter)) { engine.reducer(for: counter) }
  /// ```
  ///
  /// > Important: Give each store its own reducer: a reducer holds its store's state resident in
  /// > the engine, and two stores sharing one would overwrite each other's.
  func reducer(for feature: Feature) -> FeatureReducer

  /// The view of `state` by the feature `reducer` runs now (after ``migrate(_:to:)``, the new
  /// version), or `nil` when it has none.
  ///
  /// ```swift
  /// try engine.render(store.state, with: reducer)   // "[ - ]  3  [ + ]"
  /// ```
  ///
  /// Rendering the state of the reducer's own store costs least: an engine can render it where
  /// the state already lives (Lua: from a copy of the resident table, nothing pushed). Any other
  /// state is rendered too, at the cost of handing it over whole.
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.reducer` when the view fails or returns no text.
  ///
  /// > Important: A view only reads: whatever it writes into the state it is given is not seen by
  /// > the store.
  func render(_ state: LuaState, with reducer: FeatureReducer) throws(LuaFeatureError) -> String?

  /// Makes `reducer` serve `feature` (a version of its feature from ``reload(_:)``) from the next
  /// action on, keeping its store's state: the new version's migration, if it has one, runs once
  /// on that state, as a transaction.
  ///
  /// ```swift
  /// try engine.migrate(reducer, to: try engine.reload(counter))
  /// store.send(["type": "increment"])             // new code, from the count the store had
  /// ```
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.migration` when the migration fails: nothing it wrote
  ///   is kept and `reducer` keeps serving its old version; kind `.load` when `feature` comes from
  ///   another engine.
  ///
  /// > Important: Effects already running keep the old code; the actions they send are reduced by
  /// > the new one. Migrate every reducer of the feature, then use `feature` for the rest
  /// > (``problem(with:for:)``, new reducers).
  func migrate(_ reducer: FeatureReducer, to feature: Feature) throws(LuaFeatureError)

  /// Why `action` cannot be sent to `feature`, in the feature author's terms, or `nil` when it
  /// can: the gate every action from outside passes (an input line, a devtools dispatch, an app's
  /// own send), with "did you mean" for a misspelt type.
  ///
  /// ```swift
  /// engine.problem(with: ["type": "incremnt"], for: counter)
  /// // unknown action "incremnt" (did you mean "increment"?); Counter's actions are …
  /// ```
  ///
  /// > Important: The reducer does not call it: check input where it enters, before sending it.
  /// > An action the gate lets through can still fail in the reducer, which then rolls back.
  func problem(with action: LuaValue, for feature: Feature) -> String?

  /// What the engine uses now, and may use: what a host shows per plugin and watches.
  ///
  /// ```swift
  /// engine.usage.memoryInUse >> 10                // KiB
  /// ```
  ///
  /// > Important: One engine holds every feature it loaded: its usage is theirs together.
  var usage: FeatureEngineUsage { get }

  /// The limits the engine enforces on the code it runs, read and changed between actions.
  ///
  /// ```swift
  /// engine.limits.memoryBytes = 64 << 20
  /// ```
  ///
  /// > Important: A lower memory limit applies to the next allocation: it does not free what is
  /// > held, and an engine already above it fails its next allocations.
  var limits: Limits { get set }
}

/// What a ``FeatureEngine`` uses now and may use.
public struct FeatureEngineUsage: Sendable, Equatable {
  /// Bytes the engine holds now: its features, their states and their running effects.
  public var memoryInUse: Int
  /// The bytes it may hold (what its limits cap), or `nil` without a limit.
  public var memoryLimit: Int?

  /// Usage of `memoryInUse` bytes out of `memoryLimit`.
  public init(memoryInUse: Int, memoryLimit: Int?) {
    self.memoryInUse = memoryInUse
    self.memoryLimit = memoryLimit
  }
}
