import LuaBridge

/// The session in the record format of `lunar run --record` (JSON lines, version 2), written from
/// the log and read back into it.
///
/// ```
/// {"kind":"session","version":2,"feature":"examples/counter/feature.lua","seed":0,"clients":["factClient"],"state":{…}}
/// {"kind":"action","t":0.81,"action":{"type":"factTapped"}}
/// {"kind":"state","state":{"count":0,"loading":true,…}}
/// {"kind":"dependency","t":0.82,"name":"http.get","arguments":["http://numbersapi.com/0"],"result":{…}}
/// {"kind":"effectAction","t":0.83,"action":{"type":"factLoaded","fact":"0 is …"}}
/// {"kind":"state","state":{…}}
/// {"kind":"end","t":0.9,"running":0}
/// ```
///
/// The recording starts from the state of the log's first entry: a session the page joined late
/// replays from the moment it joined. A skipped action is left out (the states after it are the
/// recomputed ones).
enum DevtoolsRecording {
  /// The entries kept, in the record format.
  @MainActor
  static func write(_ hub: DevtoolsHub) -> String {
    let encoder = LuaJSONEncoder(depthLimit: DevtoolsMessage.depthLimit)
    var lines: [String] = []
    func line(_ value: LuaValue) {
      lines.append((try? encoder.encodeText(value)) ?? #"{"kind":"unrecorded","message":"a value JSON cannot hold"}"#)
    }
    func seconds(_ milliseconds: Double) -> LuaValue { .number((milliseconds * 1000).rounded() / 1e6) }
    let entries = hub.entries
    var session: [LuaString: LuaValue] = [
      "kind": "session", "version": 2, "feature": .text(hub.feature), "seed": .integer(Int64(bitPattern: hub.seed)),
      "clients": .array(hub.luaClients.map { .text($0) }),
    ]
    if let first = entries.first { session["state"] = first.state }
    line(.table(session))
    var calls = hub.dependencyCalls[...]
    for entry in entries {
      if let action = entry.action, !entry.skipped {
        switch entry.source {
        case .input, .devtools:
          line(["kind": "action", "t": seconds(entry.time), "action": action])
          line(["kind": "state", "state": entry.state])
        case .effect:
          line(["kind": "effectAction", "t": seconds(entry.time), "action": action])
          line(["kind": "state", "state": entry.state])
        case .started, .connected, .reload, .imported:
          break
        }
      }
      for error in entry.errors {
        line(["kind": "error", "t": seconds(entry.time), "message": .text(error.message)])
      }
      // NB: a call is written after the entry that was the latest when it was made, as it happened.
      while let call = calls.first, call.after <= entry.id {
        if call.after == entry.id || entry.id == entries.first?.id { line(call.line) }
        calls = calls.dropFirst()
      }
    }
    line(["kind": "end", "t": seconds(hub.now), "running": .integer(Int64(hub.effectsRunning))])
    return lines.joined(separator: "\n") + "\n"
  }

  /// Appends the steps of `text`, a recording, to the log of `hub`: the state it starts from, and
  /// each action with the state recorded after it. Returns how many actions were added.
  @MainActor
  static func read(_ text: String, into hub: DevtoolsHub) throws(DevtoolsRequestError) -> Int {
    let decoder = LuaJSONDecoder(depthLimit: DevtoolsMessage.depthLimit)
    var feature: String?
    var initial: LuaValue?
    var pending: (action: LuaValue, fromEffect: Bool)?
    var steps: [(action: LuaValue?, fromEffect: Bool, state: LuaValue)] = []
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
        if !object[LuaString("state")].isNil { initial = object[LuaString("state")] }
      case "action":
        pending = (object[LuaString("action")], false)
      case "effectAction":
        pending = (object[LuaString("action")], true)
      case "state":
        if let step = pending {
          steps.append((step.action, step.fromEffect, object[LuaString("state")]))
        } else if steps.isEmpty, initial == nil {
          // NB: recordings of the first version hold no initial state; a state line first stands for it.
          initial = object[LuaString("state")]
        }
        pending = nil
      case nil:
        throw DevtoolsRequestError("line \(number + 1) is not a line of a recording (it has no \"kind\")")
      default:
        continue
      }
    }
    guard let feature else { throw DevtoolsRequestError("this is not a recording: it has no session line") }
    if let initial { hub.record(.imported, action: nil, state: initial, view: nil, note: "imported: \(feature)") }
    // NB: the log keeps its latest entries only; recording the others would only make them forgotten.
    for step in steps.suffix(hub.history.limit) {
      hub.record(.imported, action: step.action, state: step.state, view: nil, note: step.fromEffect ? "from an effect" : nil)
    }
    return steps.count
  }
}
