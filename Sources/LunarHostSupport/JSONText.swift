import Foundation
import LuaBridge

/// One-line JSON for events and recordings, written by ``LuaJSONEncoder``: keys sorted by bytes,
/// integers and floats kept apart, nothing replaced.
///
/// A line is an object of fixed ASCII keys (``HostEvent/fields``, a recording's line); its values
/// are ``LuaValue``s, written exactly or refused (a string that is not UTF-8, NaN, infinities).
package enum JSONText {
  /// Deeper than any value a VM hands over (its data limit, 100 by default), plus the event around it.
  package static let depthLimit = LuaVM.Limits.default.dataDepth + 28

  /// `fields` as one line of JSON.
  ///
  /// - Throws: ``LuaJSONError`` naming the field that cannot be written (`state.ratio: NaN …`).
  package static func line(_ fields: [String: LuaValue]) throws(LuaJSONError) -> String {
    try LuaJSONEncoder(depthLimit: depthLimit).encodeText(HostEvent.table(fields))
  }

  /// An `error` event whose field (the action that failed, holding a NaN, say) cannot be written,
  /// written without that field; `nil` for other events, or when the field is the message. The
  /// error is what a client must see: the unwritable action was reported when it was sent.
  package static func errorLine(without fields: [String: LuaValue], _ error: LuaJSONError) -> String? {
    guard fields["event"]?.stringValue == "error", case let .key(field)? = error.path.components.first,
          field != "message", fields[field] != nil else { return nil }
    var rest = fields
    rest[field] = nil
    return try? line(rest)
  }

  /// Why `fields` could not be written, in words.
  package static func unwritable(_ fields: [String: LuaValue], _ error: LuaJSONError) -> String {
    let name = fields["event"]?.stringValue.map { "the \($0) event" } ?? fields["kind"]?.stringValue.map { "the \($0) line" } ?? "a line"
    return "\(name) cannot be written as JSON: \(error)"
  }

  /// An error event, which can always be written.
  package static func errorLine(kind: String, message: String) -> String {
    let event: LuaValue = ["event": "error", "kind": .text(kind), "message": .text(message), "file": nil, "line": nil]
    // NB: the message is Swift text (valid UTF-8) and the rest is fixed: this cannot fail.
    return (try? LuaJSONEncoder().encodeText(event)) ?? #"{"event":"error","kind":"output"}"#
  }

  /// `text`, cut after `limit` characters with a note of its full length, so that one huge line
  /// of input does not flood the output.
  package static func shortened(_ text: String, limit: Int = 200) -> String {
    let count = text.count
    guard count > limit else { return text }
    return "\(text.prefix(limit))… (\(count) characters)"
  }
}
