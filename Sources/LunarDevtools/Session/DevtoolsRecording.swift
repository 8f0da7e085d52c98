import LuaBridge

/// The session in the record format of `lunar run --record` (JSON lines), written from the log and
/// read back into it.
///
/// ```
/// {"kind":"session","feature":"examples/counter/feature.lua","seed":0,"version":1}
/// {"kind":"state","state":{"count":0}}          the state when the log starts
/// {"kind":"action","action":{"type":"increment"}}
/// {"kind":"state","state":{"count":1}}          the state once that action was handled
/// {"kind":"effectAction","action":{"type":"factLoaded","fact":"…"}}
/// ```
///
/// > Important: The log starts when a page connected; a recording of a session that was already
/// > running replays from the feature's initial state, not from the log's first state.
enum DevtoolsRecording {
  /// The entries kept, in the record format.
  @MainActor
  static func write(_ hub: DevtoolsHub) -> String {
    let encoder = LuaJSONEncoder(depthLimit: DevtoolsMessage.depthLimit)
    var lines: [String] = []
    func line(_ value: LuaValue) {
      lines.append((try? encoder.encodeText(value)) ?? #"{"kind":"unrecorded","message":"a value JSON cannot hold"}"#)
    }
    line(["kind": "session", "feature": .text(hub.feature), "seed": .integer(Int64(bitPattern: hub.seed)), "version": 1])
    let entries = hub.entries
    if let first = entries.first { line(["kind": "state", "state": first.state]) }
    for entry in entries {
      guard let action = entry.action else { continue }
      switch entry.source {
      case .input, .devtools:
        line(["kind": "action", "action": action])
        line(["kind": "state", "state": entry.settledState ?? entry.state])
      case .effect:
        line(["kind": "effectAction", "action": action])
      case .connected, .reload, .imported:
        continue
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Appends the steps of `text`, a recording, to the log of `hub`: each input action with the
  /// state recorded after it. Returns how many were added.
  @MainActor
  static func read(_ text: String, into hub: DevtoolsHub) throws(DevtoolsRequestError) -> Int {
    let decoder = LuaJSONDecoder(depthLimit: DevtoolsMessage.depthLimit)
    var feature: String?
    var pending: LuaValue?
    var steps: [(action: LuaValue?, state: LuaValue)] = []
    for (number, line) in text.split(separator: "\n").enumerated() where !line.allSatisfy(\.isWhitespace) {
      let object: LuaValue
      do {
        object = try decoder.decode(String(line))
      } catch {
        throw DevtoolsRequestError("line \(number + 1) is not JSON: \(error)")
      }
      switch object[LuaString("kind")].stringValue {
      case "session":
        feature = object[LuaString("feature")].stringValue
      case "action":
        pending = object[LuaString("action")]
      case "state":
        steps.append((pending, object[LuaString("state")]))
        pending = nil
      case nil:
        throw DevtoolsRequestError("line \(number + 1) is not a line of a recording (it has no \"kind\")")
      default:
        continue
      }
    }
    guard let feature else { throw DevtoolsRequestError("this is not a recording: it has no session line") }
    var count = 0
    for (index, step) in steps.enumerated() {
      if let action = step.action {
        hub.record(.imported, action: action, state: step.state, view: nil)
        count += 1
      } else if index == 0 {
        hub.record(.imported, action: nil, state: step.state, view: nil, note: "imported: \(feature)")
      }
    }
    return count
  }
}
