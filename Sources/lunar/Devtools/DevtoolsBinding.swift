import Foundation
import LuaBridge
import LuaFeatures
import Composable
import LunarDevtools
import LunarHostSupport
import LunarPlugins

/// What a devtools page looks at and acts on: `lunar run`'s session, or a plugin of `lunar host`.
@MainActor
protocol DevtoolsSubject: AnyObject {
  /// The feature serving now.
  var servingFeature: LuaFeature { get }
  /// The state now, and its view.
  func snapshot() -> (state: LuaState, view: String?)
  /// The view of a state the page shows.
  func devtoolsView(of state: LuaState) -> String?
  /// An action typed into the page, read as at the prompt.
  func parseAction(_ text: String) throws -> LuaValue
  /// Sends an action the page dispatched (already checked).
  func sendFromDevtools(_ action: LuaValue)
  /// Puts the store back in `state`, or says why it cannot.
  func resume(_ state: LuaValue) throws
  /// The feature as a reducer of its own, to recompute states when the page skips an action, or
  /// why it cannot.
  func recomputingReducer() throws -> PluginReducer
  /// The module a test exported from the page requires (`feature` for `feature.lua`).
  var testModule: String { get }
}

/// The devtools page of one session (`lunar run --devtools`, or one plugin of `lunar host
/// --devtools`): what the session does, told to the page's hub from the session's start, and what
/// the page asks of the session (dispatch, resume, skip: it reduces the log's actions again with a
/// reducer of its own and puts the store in the state they lead to).
///
/// The session tells it each step (``willReduce(_:source:)``, ``didReduce(state:view:)``, …); it
/// passes them on while the hub observes it (the hub tells it, through ``observe(_:)``): from its
/// creation, so that a page opened late sees every action since, as far as the history keeps.
@MainActor
final class DevtoolsBinding: DevtoolsHost, SessionInspector {
  let hub: DevtoolsHub
  private(set) weak var subject: (any DevtoolsSubject)?
  /// The hub while it observes the session; `nil` otherwise.
  private var watching: DevtoolsHub?
  /// Told when the hub starts (the hub) or stops (`nil`) observing: `lunar run` only then inspects.
  private let onObserve: (DevtoolsBinding, DevtoolsHub?) -> Void
  private let sessionNames: () -> [String]
  /// The action being reduced, and the errors it raised so far: its entry is added once reduced.
  private var pending: (action: LuaValue, source: DevtoolsSource, errors: [DevtoolsError])?
  /// Whether the page's action is being sent: its reduction is the page's, not input's.
  private var dispatching = false
  /// The entry of the latest action from input or the page: the one whose effects start next.
  private var lastSent: Int?
  /// Whether the latest action reduced came from input or the page (not from an effect).
  private var lastReducedWasSent = false
  /// Where the effect the latest action from input or the page returned was created: its
  /// effects, when they start, are shown with it.
  private var returnedOrigin: String?
  /// The page's number for the effects of each action whose effects run, by the session's.
  private var inspected: [Int: Int] = [:]
  /// The reducer recomputing states when the page skips an action, made when first needed.
  private var recomputer: PluginReducer?
  /// Whether the store is being put in a recomputed state: the hub has updated the log itself.
  private var replacing = false

  init(
    subject: any DevtoolsSubject, hub: DevtoolsHub, sessions: @escaping () -> [String] = { [] },
    onObserve: @escaping (DevtoolsBinding, DevtoolsHub?) -> Void = { _, _ in }
  ) {
    self.subject = subject
    self.hub = hub
    self.sessionNames = sessions
    self.onObserve = onObserve
    hub.host = self
    hub.luaClients = Recorder.clients(of: subject.servingFeature)
    // NB: the log is kept from the start, so that a page opened late sees every action since.
    hub.observeFromStart()
  }

  // MARK: - DevtoolsHost

  func observe(_ hub: DevtoolsHub?) {
    watching = hub
    onObserve(self, hub)
  }

  var sessions: [String] { sessionNames() }

  func snapshot() -> (state: LuaValue, view: String?) {
    guard let (state, view) = subject?.snapshot() else { return (.nil, nil) }
    return (state.value, view)
  }

  func dispatch(_ text: String) throws {
    guard let subject else { return }
    let action = try subject.parseAction(text)
    // NB: as typed at the prompt: an action JSON cannot hold, or one the feature does not declare,
    //     is refused, here with its reason.
    if let problem = TypedActionCheck.refusal(of: action, by: subject.servingFeature) {
      throw DevtoolsRefusal(message: problem)
    }
    dispatching = true
    defer { dispatching = false }
    subject.sendFromDevtools(action)
  }

  func resume(_ state: LuaValue) throws {
    try subject?.resume(state)
  }

  func reduce(_ state: LuaValue, _ action: LuaValue) throws -> LuaValue {
    guard let subject else { throw DevtoolsRefusal(message: "the session has ended") }
    let reducer = try recomputer ?? subject.recomputingReducer()
    recomputer = reducer
    var recomputed = LuaState(state)
    // NB: the effects it returns are not run: what they sent is in the log, reduced where it was.
    _ = reducer.reduce(into: &recomputed, action: action)
    return recomputed.value
  }

  func replaceState(_ state: LuaValue) throws {
    replacing = true
    defer { replacing = false }
    try subject?.resume(state)
  }

  func render(_ state: LuaValue) -> String? {
    subject?.devtoolsView(of: LuaState(state))
  }

  func exportTest(recording: String) throws -> String {
    let parsed = try Recording(text: recording, name: "the devtools session")
    return try RecordingTestWriter(recording: parsed, module: subject?.testModule ?? "feature", recordingName: "devtools session")
      .luaTest()
  }

  // MARK: - What the session does

  func willReduce(_ action: LuaValue, source: String) {
    guard watching != nil else { return }
    let shown = source == "effect" ? DevtoolsSource.effect : (dispatching ? .devtools : DevtoolsSource(rawValue: source) ?? .input)
    pending = (action, shown, [])
  }

  func didReduce(state: LuaState, view: String?) {
    guard let watching, let pending else { return }
    self.pending = nil
    let id = watching.record(pending.source, action: pending.action, state: state.value, view: view)
    lastReducedWasSent = pending.source != .effect
    if lastReducedWasSent { lastSent = id }
    for error in pending.errors { watching.recordError(error) }
  }

  func failed(_ error: LuaFeatureError) {
    guard let watching else { return }
    let shown = DevtoolsError(kind: error.kind.rawValue, message: error.message, file: error.file, line: error.line)
    // NB: an error raised while reducing belongs to the action's entry, which is added once reduced.
    if pending != nil {
      pending?.errors.append(shown)
    } else {
      watching.recordError(shown)
    }
  }

  func returned(_ effect: Effect<LuaValue>) {
    guard watching != nil, lastReducedWasSent else { return }
    returnedOrigin = effect.firstOrigin?.label
  }

  func effects(of action: LuaValue, _ change: PluginSession.EffectsChange) {
    switch change {
    case let .started(id):
      guard let watching else { return }
      inspected[id] = watching.effectStarted(
        entry: lastSent, actionType: action[LuaString("type")].stringValue ?? "?", origin: returnedOrigin)
      returnedOrigin = nil
    case let .ended(id, cancelled):
      if let shown = inspected.removeValue(forKey: id) { hub.effectEnded(shown, cancelled: cancelled) }
    }
  }

  func reloaded(files: [String], error: LuaFeatureError?) {
    guard let watching, let (state, view) = subject?.snapshot() else { return }
    let what = files.isEmpty ? "" : " " + files.joined(separator: ", ")
    let note = error == nil ? "reloaded\(what), state kept" : "reload failed\(what): the running version keeps serving"
    watching.record(.reload, action: nil, state: state.value, view: error == nil ? view : nil, note: note)
    if let error { failed(error) }
  }

  func resumed(state: LuaState, view: String?) {
    guard !replacing else { return }
    watching?.record(.devtools, action: nil, state: state.value, view: view, note: "resumed from an earlier state")
  }
}

/// Why the devtools page's request was refused, in words the page shows.
struct DevtoolsRefusal: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
