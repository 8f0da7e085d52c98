import Composable
import LuaBridge
import LuaFeatures

/// One store running a plugin's feature: the plugin's main session, or one of many (a server
/// holding one per user). Sessions of a plugin share its VM; each has its own state and effects.
///
/// ```swift
/// let session = plugin.makeSession()
/// session.send(["type": "increment"])
/// session.state.count          // 1
/// ```
///
/// Send through the session (not the store) so that unloading the plugin cancels the effects the
/// session started. A session whose plugin was unloaded refuses every action.
@MainActor
public final class PluginSession {
  /// The store.
  public let store: Store<LuaState, LuaValue>
  /// The name of the plugin it runs.
  public let plugin: String
  let core: PluginReducerCore
  private var tasks: [Int: StoreTask] = [:]
  private var nextTask = 0
  /// Whether the action being reduced came from ``send(_:)`` (rather than an effect).
  private var sendingFromCaller = false

  /// Where an action came from.
  public enum Source: String, Sendable {
    /// ``send(_:)``.
    case send
    /// An effect (or a `fx.send`).
    case effect
  }

  /// Called before the store reduces each action, with where it came from: for consoles and logs
  /// that show the action before what it caused (an error, the new state).
  public var onAction: (@MainActor (_ action: LuaValue, _ source: Source) -> Void)? {
    didSet { observe() }
  }

  /// Called after each action the store reduced, with where it came from and the state before
  /// (when ``keepsStateBefore``) and after: for consoles, logs and recorders.
  public var onReduce: (@MainActor (_ action: LuaValue, _ source: Source, _ before: LuaState?, _ after: LuaState) -> Void)? {
    didSet { observe() }
  }

  /// Called with the effect each action returned, before it starts, while ``onAction`` or
  /// ``onReduce`` watch: for tools that show where it was created (`Effect/firstOrigin`).
  public var onReturn: (@MainActor (_ effect: Effect<LuaValue>) -> Void)? {
    didSet { observe() }
  }

  /// Whether ``onReduce`` gets the state before each action (`true` by default).
  ///
  /// > Important: Keeping it costs the size of what the action changes: the reducer then writes
  /// > into a state that is shared, and copies each array and table on the way to its writes (a
  /// > whole list of 100,000 rows to toggle one). Keep it only to show a diff; ``lastChanges``
  /// > says what changed for the cost of the change.
  public var keepsStateBefore: Bool {
    get { core.keepsStateBefore }
    set { core.keepsStateBefore = newValue }
  }

  /// What the last action reduced changed, as the reducer reports it (for events carrying
  /// changes rather than states).
  public var lastChanges: [LuaStateChange] { core.lua.lastChanges }

  /// The feature's view of `state` with the version this session runs: the session's own state,
  /// as its last action left it, is rendered from the table resident in the VM (nothing pushed
  /// from Swift); any other state is pushed whole.
  ///
  /// - Throws: ``LuaFeatureError`` when `view` fails or returns something other than a string.
  public func render(_ state: LuaState) throws(LuaFeatureError) -> String? {
    try core.lua.render(state)
  }
  /// The source of the action being reduced.
  private var currentSource: Source = .effect

  /// Called when the effects of an action sent with ``send(_:)`` start and when they have all
  /// ended, with how many such actions have effects running.
  public var onEffects: (@MainActor (_ action: LuaValue, _ change: EffectsChange, _ running: Int) -> Void)?

  /// What happened to the effects of an action sent with ``send(_:)``.
  public enum EffectsChange: Equatable, Sendable {
    /// They started; `id` names them until they end.
    case started(id: Int)
    /// They have all ended; `cancelled` when every one of them was cancelled.
    case ended(id: Int, cancelled: Bool)
  }

  init(plugin: String, core: PluginReducerCore, initialState: LuaState) {
    self.plugin = plugin
    self.core = core
    self.store = Store(initialState: initialState) { PluginReducer(core: core) }
  }

  /// The current state.
  public var state: LuaState { store.withState { $0 } }

  /// Sends an action; the state has changed when it returns.
  ///
  /// - Returns: The task of the effects it started: await it to wait for them.
  @discardableResult
  public func send(_ action: LuaValue) -> StoreTask {
    sendingFromCaller = true
    let task = store.send(action)
    sendingFromCaller = false
    if task.hasEffects { track(task, for: action) }
    return task
  }

  /// Puts the store back in `state` (a devtools' "resume from here"), without reducing any action
  /// nor telling ``onAction`` or ``onReduce``; running effects go on.
  public func resume(_ state: LuaState) {
    core.replacement = state
    // NB: the action is never reduced: the reducer takes the replacement instead.
    store.send(.nil)
    core.replacement = nil
  }

  /// Effects of this session running now.
  public var effectsRunning: Int { store.effectsInFlight }

  /// Cancels every effect the session's actions started; returns their tasks, to await (one per
  /// action sent whose effects still ran).
  package func cancelEffects() -> [StoreTask] {
    let running = Array(tasks.values)
    for task in running { task.cancel() }
    return running
  }

  private func track(_ task: StoreTask, for action: LuaValue) {
    let id = nextTask
    nextTask += 1
    tasks[id] = task
    onEffects?(action, .started(id: id), tasks.count)
    Task { [weak self] in
      await task.finish()
      guard let self else { return }
      self.tasks[id] = nil
      // NB: cancelled when every effect of the action was (`fx.cancel`, a new `cancelInFlight`
      //     run, a feature cancelling its child's effects, unloading, `:quit`).
      self.onEffects?(action, .ended(id: id, cancelled: task.isCancelled), self.tasks.count)
    }
  }

  private func observe() {
    guard onReduce != nil || onAction != nil else {
      core.willReduce = nil
      core.observer = nil
      core.didReturn = nil
      return
    }
    core.willReduce = { [weak self] action in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.currentSource = self.sendingFromCaller ? .send : .effect
        // NB: only the first action of a `send` is the caller's; those it leads to are effects'.
        self.sendingFromCaller = false
        self.onAction?(action, self.currentSource)
      }
    }
    core.observer = { [weak self] action, before, after in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.onReduce?(action, self.currentSource, before, after)
      }
    }
    core.didReturn = onReturn.map { onReturn in
      { effect in MainActor.assumeIsolated { onReturn(effect) } }
    }
  }
}
