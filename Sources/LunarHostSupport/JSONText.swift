import Foundation
import LuaBridge

/// One-line JSON for events and recordings, written by ``LuaJSONEncoder``: keys sorted by bytes,
/// integers and floats kept apart, nothing replaced.
///
/// Event objects are `[String: Any]` with fixed ASCII keys; their values may be Swift scalars,
/// arrays and dictionaries, `NSNull`, or ``LuaValue``s (states, actions), which are written exactly
/// or refused (a string that is not UTF-8, NaN, infinities).
package enum JSONText {
  /// Deeper than any value a VM hands over (its data limit, 100 by default), plus the event around it.
  package static let depthLimit = LuaVM.Limits.default.dataDepth + 28

  /// `object` as one line of JSON.
  ///
  /// - Throws: ``LuaJSONError`` naming the field that cannot be written (`state.ratio: NaN …`).
  package static func line(_ object: [String: Any]) throws(LuaJSONError) -> String {
    try LuaJSONEncoder(depthLimit: depthLimit).encodeText(value(object))
  }

  /// `object` as one line of JSON; when a value cannot be written, an error event that says why
  /// instead (the host goes on).
  package static func encode(_ object: [String: Any]) -> String {
    do {
      return try line(object)
    } catch {
      return errorLine(without: object, error) ?? errorLine(kind: "output", message: unwritable(object, error))
    }
  }

  /// An `error` event whose field (the action that failed, holding a NaN, say) cannot be written,
  /// written without that field; `nil` for other events, or when the field is the message. The
  /// error is what a client must see: the unwritable action was reported when it was sent.
  package static func errorLine(without object: [String: Any], _ error: LuaJSONError) -> String? {
    guard object["event"] as? String == "error", case let .key(field)? = error.path.components.first,
          field != "message", object[field] != nil else { return nil }
    var rest = object
    rest[field] = nil
    return try? line(rest)
  }

  /// Why `object` could not be written, in words.
  package static func unwritable(_ object: [String: Any], _ error: LuaJSONError) -> String {
    let name = (object["event"] as? String).map { "the \($0) event" } ?? (object["kind"] as? String).map { "the \($0) line" } ?? "a line"
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

  /// A Swift value of an event as a ``LuaValue``. Dictionary keys are Swift strings, so two of them
  /// are never the same bytes.
  package static func value(_ any: Any) -> LuaValue {
    switch any {
    case let value as LuaValue: return value
    case let string as LuaString: return .string(string)
    case let string as String: return .text(string)
    case let bool as Bool: return .boolean(bool)
    case let integer as Int: return .integer(Int64(integer))
    case let integer as Int64: return .integer(integer)
    case let integer as Int32: return .integer(Int64(integer))
    case let integer as UInt64: return Int64(exactly: integer).map(LuaValue.integer) ?? .number(Double(integer))
    case let number as Double: return .number(number)
    case is NSNull: return .nil
    case let optional as any OptionalValue: return optional.wrapped.map(value) ?? .nil
    case let dictionary as [String: Any]:
      var entries: [LuaString: LuaValue] = [:]
      for (key, element) in dictionary { entries[LuaString(key)] = value(element) }
      return .table(entries)
    case let array as [Any]: return .array(array.map(value))
    default: return .text(String(describing: any))
    }
  }
}

/// An `Optional` seen through `Any`.
private protocol OptionalValue {
  var wrapped: Any? { get }
}

extension Optional: OptionalValue {
  fileprivate var wrapped: Any? { self.map { $0 } }
}
