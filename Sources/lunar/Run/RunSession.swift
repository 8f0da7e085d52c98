import Composable
import DequeModule
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport
import LunarPlugins

/// A feature running in the host: a store fed by lines of input, showing what happens.
///
/// The feature is a plugin of its own ``PluginHost`` (the user's own feature, trusted with every
/// capability offered): run shows its session as `lunar host` shows a plugin's, through the host's
/// events and the session's callbacks.
@MainActor
final class RunSession {
  /// The host of the one plugin run serves: it reloads it (`--watch`) and tells its errors,
  /// warnings and printed text.
  let host: PluginHost
  /// The feature, as a plugin of ``host``.
  let plugin: Plugin
  /// The version serving now (a reload replaces it).
  var feature: LuaFeature { plugin.feature }
  /// Watches the feature's files (`--watch`).
  var watcher: FileWatcher?
  let output: SessionOutput
  let parser: ActionParser
  let keepGoing: Bool
  let recorder: Recorder?
  /// Issues the core reported, shown before the next event.
  let issues: RunIssueReporter?
  /// The session the store runs in: the plugin's main one, or one from a replay's initial state.
  let session: PluginSession
  var store: Store<LuaState, LuaValue> { session.store }
  private(set) var errors = 0
  /// The latest input actions, at most `historyLimit` (`:history`): a long run stays flat.
  private(set) var history: Deque<LuaValue> = []
  let historyLimit: Int
  /// How many input actions were sent in all (`:history` numbers them from the first).
  private(set) var sentCount = 0
  /// How many input actions have effects running.
  private var running = 0
  /// Whether `:quit` was typed: the session ends without waiting for its effects.
  private(set) var quitRequested = false
  /// How many actions effects have sent so far.
  private(set) var effectActions = 0
  /// Where the input action being sent comes from: `input`, or `devtools`.
  private var inputSource = "input"
  /// The devtools page, while one is connected; `nil` otherwise, so that an unwatched run pays nothing.
  var inspector: (any SessionInspector)?
  /// The devtools page's glue, kept for as long as the session (`--devtools`).
  var devtools: DevtoolsBinding?
  /// The action types the scripts of a version compare against (see `accepts`), for that version.
  var knownTypesCache: (feature: LuaFeature, types: Set<String>)?
  /// Whether the action being reduced came from input.
  private var reducingInput = false
  /// Whether the state may have changed outside of the reducer's report since the last action (a
  /// reload ran `migrate`): the next state event carries the whole state.
  var stateRewritten = false
  /// Told after a reload loaded a new version (the prompt's completion follows its actions).
  var onReload: (() -> Void)?
  /// Told after each action the feature reduced (from input or from an effect), with the state
  /// after it: replay compares them with the recording.
  var onReduce: ((_ action: LuaValue, _ fromInput: Bool, _ state: LuaState) -> Void)?

  /// - Parameter initialState: The state to start from (a replay's recorded one); the feature's
  ///   own when `nil`.
  init(
    host: PluginHost, plugin: Plugin, output: SessionOutput, keepGoing: Bool, recorder: Recorder?,
    historyLimit: Int = 1000, issues: RunIssueReporter? = nil, initialState: LuaState? = nil
  ) {
    self.historyLimit = historyLimit
    self.host = host
    self.plugin = plugin
    self.output = output
    self.keepGoing = keepGoing
    self.recorder = recorder
    self.issues = issues
    self.parser = ActionParser(vm: plugin.luaHost.vm)
    self.session = initialState.map { plugin.makeSession(initialState: $0) } ?? plugin.main
    session.keepsStateBefore = output.needsStateBefore
    session.onAction = { [weak self] action, source in self?.willReduce(action, fromInput: source == .send) }
    session.onReduce = { [weak self] action, _, before, after in self?.didReduce(action, before: before, after: after) }
    session.onReturn = { [weak self] effect in self?.inspector?.returned(effect) }
    session.onEffects = { [weak self] action, change, running in self?.effects(of: action, change, running: running) }
    host.onEvent = { [weak self] event in self?.handle(event) }
    recorder?.onError = { [weak output] message in output?.hostError(kind: "record", message: message) }
  }

  /// What the host tells of the plugin: its errors, its warnings, and (as a JSON event, so that it
  /// does not break the stream) what its scripts print. Reloads are shown by ``startWatching()``,
  /// which times them.
  private func handle(_ event: PluginEvent) {
    switch event {
    case let .error(_, error): failed(error)
    case let .warning(_, warning): output.warning(warning)
    case let .printed(_, text): output.printed(text)
    case .loaded, .reloaded, .unloaded, .failed: break
    }
  }

  func start() {
    issues?.deliverPending()
    let state = store.withState { $0 }
    output.ready(feature: feature.name, state: state, view: output.showsView ? render(state) : nil)
  }

  /// Handles one line of input; returns `false` when the session should stop.
  func handle(_ line: String) -> Bool {
    let text = line.trimmingCharacters(in: .whitespaces)
    if text.isEmpty || text.hasPrefix("--") { return true }
    if text.hasPrefix(":") { return command(text) }
    let action: LuaValue
    do {
      action = try parser.parse(text)
    } catch {
      errors += 1
      output.inputError(error.description, line: line)
      return keepGoing || StandardInput.isTerminal
    }
    guard accepts(action, line: line) else {
      errors += 1
      return keepGoing || StandardInput.isTerminal
    }
    return send(action)
  }

  /// Reports a line that cannot be an action (too long, not UTF-8): `problem` says why; returns
  /// `false` when the session should stop.
  func skip(_ problem: String) -> Bool {
    errors += 1
    output.inputError(problem, line: "")
    return keepGoing || StandardInput.isTerminal
  }

  /// Sends an action from input (or, with `source` "devtools", from the page); returns `false` when
  /// an error should stop the session.
  func send(_ action: LuaValue, source: String = "input") -> Bool {
    let errorsBefore = errors
    sentCount += 1
    if historyLimit > 0 {
      if history.count == historyLimit { history.removeFirst() }
      history.append(action)
    }
    inputSource = source
    session.send(action)
    return errors == errorsBefore || keepGoing || StandardInput.isTerminal
  }

  /// Waits until no effect runs, or `timeout` passes; returns how many still run.
  func settle(timeout: Duration) async -> Int {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    // NB: the store's own count includes effects started by actions that effects sent (a
    //     debounce that starts a request), which `running` (effects of input actions) misses.
    while running > 0 || store.effectsInFlight > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return max(running, store.effectsInFlight)
  }

  /// Waits until effects have sent at least `count` actions in all, or `timeout` passes.
  func waitForEffectActions(_ count: Int, timeout: Duration) async {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while effectActions < count, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  var hadErrors: Bool { errors > 0 || output.hostErrors > 0 }

  /// Puts the store back in `state` (the devtools' "resume from here"); running effects go on.
  func resume(_ state: LuaValue) {
    let before = store.withState { $0 }
    session.resume(LuaState(state))
    let after = store.withState { $0 }
    let view = render(after)
    output.note("the store was put back in an earlier state (devtools)")
    output.state(before: before, after: after, view: before == after ? nil : view)
    inspector?.resumed(state: after, view: view)
  }

  /// What Tab completes at the prompt: the feature's actions (as paths, with their fields) and
  /// the commands `lunar run` serves.
  var completion: ActionCompletion {
    let commands = ["quit", "help", "wait", "state", "view", "history", "deps", "mute", "unmute", "expand", "reset"]
    return ActionCompletion(paths: feature.actionPaths, commands: commands)
  }

  /// Puts the store back in the feature's initial state (`:reset`), cancelling running effects.
  func reset() {
    let cancelled = cancelEffects()
    let before = store.withState { $0 }
    session.resume(plugin.luaHost.initialState(of: feature))
    let after = store.withState { $0 }
    let view = output.showsView || inspector != nil ? render(after) : nil
    output.note("reset to the initial state" + (cancelled > 0 ? " (the effects of \(cancelled) action(s) cancelled)" : ""))
    output.state(before: before, after: after, view: before == after ? nil : view)
    inspector?.resumed(state: after, view: view)
  }

  private func mute(_ type: String?, _ on: Bool) {
    guard let text = output as? TextSessionOutput else { return }
    if let type {
      text.mute(type, on)
      output.note(on ? "\(type) muted (:unmute \(type) shows it again)" : "\(type) shown again")
    } else {
      output.note(text.muted.isEmpty ? "(no action type muted)" : "muted: " + text.muted.sorted().joined(separator: ", "))
    }
  }

  /// The view of `state`, or `nil` when the feature has none or it fails (the error is shown).
  func view(of state: LuaState) -> String? {
    render(state)
  }

  /// How many effects run now (the store's count includes effects of actions effects sent).
  var effectsRunning: Int { max(running, store.effectsInFlight) }

  /// Cancels every running effect (and those of the actions they sent); returns how many input
  /// actions had effects running.
  func cancelEffects() -> Int {
    session.cancelEffects().count
  }

  /// Shows the effects of an input action starting and ending (to the devtools, with where they
  /// were created).
  private func effects(of action: LuaValue, _ change: PluginSession.EffectsChange, running: Int) {
    self.running = running
    let started = if case .started = change { true } else { false }
    output.effect(started ? "started" : "finished", for: action, running: running)
    inspector?.effects(of: action, change)
  }

  private func willReduce(_ action: LuaValue, fromInput: Bool) {
    let source = fromInput ? inputSource : "effect"
    output.action(action, source: source)
    inspector?.willReduce(action, source: source)
    reducingInput = fromInput
    if reducingInput {
      recorder?.action(action)
    } else {
      effectActions += 1
      recorder?.effectAction(action)
    }
  }

  private func didReduce(_ action: LuaValue, before: LuaState?, after: LuaState) {
    issues?.deliverPending()
    recorder?.state(after)
    onReduce?(action, reducingInput, after)
    // NB: what changed comes from the reducer's own change report: telling it costs what changed,
    //     not the size of the state (comparing the states would not).
    // NB: after a reload, `migrate` may have rewritten the state outside of any action's changes.
    let changes = stateRewritten ? nil : session.lastChanges
    stateRewritten = false
    let changed = changes.map { !$0.isEmpty } ?? before.map { $0 != after } ?? true
    let view = changed && (output.showsView || inspector != nil) ? render(after) : nil
    output.state(before: before, after: after, changes: changes, view: output.showsView ? view : nil)
    inspector?.didReduce(state: after, view: view)
  }

  private func failed(_ error: LuaFeatureError) {
    issues?.deliverPending()
    errors += 1
    recorder?.error(error.message)
    output.error(error)
    inspector?.failed(error)
  }

  private func render(_ state: LuaState) -> String? {
    do {
      return try session.render(state)
    } catch {
      failed(error)
      return nil
    }
  }

  private func command(_ text: String) -> Bool {
    guard let command = PromptCommand(typed: text, servedBy: .run) else {
      errors += 1
      output.inputError("unknown command \(text) (try :help)", line: text)
      return keepGoing || StandardInput.isTerminal
    }
    switch command {
    case .quit:
      quitRequested = true
      return false
    case .state:
      output.note((output as? TextSessionOutput)?.dump(store.state) ?? LuaNotation.block.text(store.state.value))
    case .view:
      do {
        output.note(try session.render(store.state) ?? "(this feature has no view)")
      } catch {
        failed(error)
      }
    case .history:
      let first = sentCount - history.count + 1
      // NB: as typed at the prompt, whole, so that a line can be typed again.
      let values = ValueText(depth: nil, length: nil)
      var lines = history.enumerated().map { "\(first + $0.offset). \(values.action($0.element))" }
      if first > 1 { lines.insert("(\(first - 1) earlier action(s) forgotten: --history keeps \(historyLimit))", at: 0) }
      output.note(history.isEmpty ? "(no actions yet)" : lines.joined(separator: "\n"))
    case .deps:
      let dependencies = plugin.luaHost.dependencies
      let hosts = dependencies.names.map { name -> (String, String) in
        if case .async = dependencies.functions[name] { return (name, "deps.\(name)  (async: only inside fx.run)") }
        return (name, "deps.\(name)")
      }
      let clients = feature.clientNames.map { ($0, "deps.\($0)  (a client written in Lua)") }
      output.note((hosts + clients).sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n"))
    case .help:
      output.note(PromptCommand.help(for: .run))
    case let .mute(type):
      mute(type, true)
    case let .unmute(type):
      mute(type, false)
    case .expand:
      output.note((output as? TextSessionOutput)?.expand() ?? "(nothing to expand yet)")
    case .reset:
      reset()
    case .wait, .plugins, .use, .load, .reload, .unload:
      // NB: `:wait` awaits, so `serve` runs it before the line gets here; the rest are `lunar host`'s.
      break
    }
    return true
  }
}
