import LuaBridge

/// The messages the hub sends a page, one JSON object each (`{"type":"entry",…}`).
///
/// Values are written exactly (``LuaJSONEncoder``); one JSON cannot hold (NaN, text that is not
/// UTF-8) is shown as text saying so, and the page goes on.
enum DevtoolsMessage {
  static func hello(feature: String, session: String?, sessions: [String], historyLimit: Int, forgotten: Int) -> String {
    var message: [LuaString: LuaValue] = [
      "type": "hello", "feature": .text(feature), "historyLimit": int(historyLimit), "forgotten": int(forgotten),
      "sessions": .array(sessions.map { .text($0) }),
    ]
    if let session { message["session"] = .text(session) }
    return encode(.table(message))
  }

  static func entry(_ entry: DevtoolsEntry) -> String {
    var message: [LuaString: LuaValue] = [
      "type": "entry", "id": int(entry.id), "source": .text(entry.source.rawValue), "time": .number(entry.time),
      "errors": .array(entry.errors.map(error)),
    ]
    if let action = entry.action { message["action"] = action }
    if let note = entry.note { message["note"] = .text(note) }
    if entry.skipped { message["skipped"] = true }
    return encode(message, showing: "action")
  }

  static func error(_ error: DevtoolsError, entry: Int) -> String {
    encode(["type": "error", "entry": int(entry), "error": self.error(error)])
  }

  static func effect(_ event: DevtoolsEffectEvent) -> String {
    var message: [LuaString: LuaValue] = [
      "type": "effect", "effect": int(event.effect), "status": .text(event.status.rawValue),
      "actionType": .text(event.actionType), "time": .number(event.time),
    ]
    if let entry = event.entry { message["entry"] = int(entry) }
    if let origin = event.origin { message["origin"] = .text(origin) }
    return encode(.table(message))
  }

  /// The entries skipped now (all of them), after `id` was skipped or unskipped: the states from
  /// `id` on were recomputed.
  static func skipped(_ ids: [Int], recomputedFrom id: Int) -> String {
    encode(["type": "skipped", "ids": .array(ids.map(int)), "from": int(id)])
  }

  static func forgotten(through id: Int) -> String {
    encode(["type": "forgotten", "through": int(id)])
  }

  /// - Parameter before: The state of the entry before it, from which the page draws the diff as a tree.
  static func detail(_ entry: DevtoolsEntry, view: String?, diff: String?, before: LuaValue? = nil) -> String {
    var message: [LuaString: LuaValue] = ["type": "detail", "id": int(entry.id), "state": entry.state]
    if entry.skipped { message["skipped"] = true }
    if let view { message["view"] = .text(view) }
    if let diff { message["diff"] = .text(diff) }
    if let before, diff != nil { message["before"] = before }
    return encode(message, showing: "state")
  }

  static func export(format: String, text: String) -> String {
    encode(["type": "export", "format": .text(format), "text": .text(text)])
  }

  /// What the server takes from a page: the longest message, in bytes.
  static func limits(messageBytes: Int) -> String {
    encode(["type": "limits", "messageBytes": int(messageBytes)])
  }

  static func notice(_ text: String, isError: Bool) -> String {
    encode(["type": "notice", "message": .text(text), "error": .boolean(isError)])
  }

  private static func error(_ error: DevtoolsError) -> LuaValue {
    var fields: [LuaString: LuaValue] = ["kind": .text(error.kind), "message": .text(error.message)]
    if let file = error.file { fields["file"] = .text(file) }
    if let line = error.line { fields["line"] = int(line) }
    return .table(fields)
  }

  private static func int(_ value: Int) -> LuaValue { .integer(Int64(value)) }

  /// `message`; when its `field` (a value of the feature's) cannot be written as JSON, the message
  /// with text saying why in its place.
  private static func encode(_ message: [LuaString: LuaValue], showing field: LuaString) -> String {
    do {
      return try LuaJSONEncoder(depthLimit: depthLimit).encodeText(.table(message))
    } catch {
      var message = message
      message[field] = .text("(cannot be shown as JSON: \(error))")
      return encode(.table(message))
    }
  }

  /// Deeper than any value a VM hands over, plus the message around it.
  static let depthLimit = LuaVM.Limits.default.dataDepth + 28

  private static func encode(_ message: LuaValue) -> String {
    do {
      return try LuaJSONEncoder(depthLimit: depthLimit).encodeText(message)
    } catch {
      // NB: what is left is Swift text and numbers; only a non-finite time could fail.
      return (try? LuaJSONEncoder().encodeText(["type": "notice", "message": .text("\(error)"), "error": true])) ?? "{}"
    }
  }
}
