import Foundation
import LuaBridge
import LuaFeatures
import LunarDevtools
import LunarHostSupport

/// `lunar run --devtools`: the devtools page of a ``RunSession``.
///
/// It is the session's ``SessionInspector`` only while a page is connected (the hub tells it,
/// through ``observe(_:)``), so a run nobody watches pays nothing for it.
@MainActor
final class RunDevtools: DevtoolsHost, SessionInspector {
  let hub: DevtoolsHub
  private weak var session: RunSession?
  /// The action being reduced, and the errors it raised so far: its entry is added once reduced.
  private var pending: (action: LuaValue, source: DevtoolsSource, errors: [DevtoolsError])?
  /// The entry of the latest action from input or the page: the one whose effects start next.
  private var lastSent: Int?

  /// Tells the hub each dependency call while a page is connected.
  private let tap: DevtoolsDependencyTap?

  init(session: RunSession, hub: DevtoolsHub, tap: DevtoolsDependencyTap?) {
    self.session = session
    self.hub = hub
    self.tap = tap
    hub.host = self
    hub.luaClients = Recorder.clients(of: session.feature)
  }

  // MARK: - DevtoolsHost

  func observe(_ hub: DevtoolsHub?) {
    session?.inspector = hub == nil ? nil : self
    tap?.watch(hub)
  }

  func snapshot() -> (state: LuaValue, view: String?) {
    guard let session else { return (.nil, nil) }
    let state = session.store.state
    return (state.value, session.view(of: state))
  }

  func dispatch(_ text: String) throws {
    guard let session else { return }
    let action = try session.parser.parse(text)
    // NB: as typed at the prompt: an action JSON cannot hold, or one the feature does not declare,
    //     is refused, here with its reason.
    if let problem = TypedActionCheck.refusal(of: action, by: session.feature) {
      throw DevtoolsRefusal(message: problem)
    }
    _ = session.send(action, source: "devtools")
  }

  func resume(_ state: LuaValue) {
    session?.resume(state)
  }

  var sessions: [String] { [] }

  func render(_ state: LuaValue) -> String? {
    try? session?.feature.render(LuaState(state))
  }

  func exportTest(recording: String) throws -> String {
    let module = session?.feature.location?.script.deletingPathExtension().lastPathComponent ?? "feature"
    let parsed = try Recording(text: recording, name: "the devtools session")
    return try RecordingTestWriter(recording: parsed, module: module, recordingName: "devtools session").luaTest()
  }

  // MARK: - SessionInspector

  func willReduce(_ action: LuaValue, source: String) {
    pending = (action, DevtoolsSource(rawValue: source) ?? .effect, [])
  }

  func didReduce(state: LuaState, view: String?) {
    guard let pending else { return }
    self.pending = nil
    let id = hub.record(pending.source, action: pending.action, state: state.value, view: view)
    if pending.source == .input || pending.source == .devtools { lastSent = id }
    for error in pending.errors { hub.recordError(error) }
  }

  func failed(_ error: LuaFeatureError) {
    let shown = DevtoolsError(kind: error.kind.rawValue, message: error.message, file: error.file, line: error.line)
    // NB: an error raised while reducing belongs to the action's entry, which is added once reduced.
    if pending != nil {
      pending?.errors.append(shown)
    } else {
      hub.recordError(shown)
    }
  }

  func effectsStarted(by action: LuaValue, origin: String?) -> Int {
    hub.effectStarted(entry: lastSent, actionType: action[LuaString("type")].stringValue ?? "?", origin: origin)
  }

  func effectsEnded(_ id: Int, cancelled: Bool) {
    hub.effectEnded(id, cancelled: cancelled)
  }

  func reloaded(files: [String], error: LuaFeatureError?) {
    guard let session else { return }
    let state = session.store.state
    let what = files.isEmpty ? "" : " " + files.joined(separator: ", ")
    let note = error == nil ? "reloaded\(what), state kept" : "reload failed\(what): the running version keeps serving"
    hub.record(.reload, action: nil, state: state.value, view: error == nil ? session.view(of: state) : nil, note: note)
    if let error { failed(error) }
  }

  func resumed(state: LuaState, view: String?) {
    hub.record(.devtools, action: nil, state: state.value, view: view, note: "resumed from an earlier state")
  }
}

/// Why the devtools page's request was refused, in words the page shows.
struct DevtoolsRefusal: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
