import Foundation
import LuaBridge

/// One-line JSON for events.
enum JSONText {
  static func encode(_ object: Any) -> String {
    let cleaned = clean(object)
    guard let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys, .withoutEscapingSlashes]) else {
      return #"{"event":"error","message":"could not encode an event as JSON"}"#
    }
    return String(decoding: data, as: UTF8.self)
  }

  private static func clean(_ value: Any) -> Any {
    switch value {
    case let dictionary as [String: Any]:
      return dictionary.mapValues(clean)
    case let array as [Any]:
      return array.map(clean)
    case let lua as LuaValue:
      return json(lua)
    default:
      return value
    }
  }

  /// `text`, cut after `limit` characters with a note of its full length, so that one huge line
  /// of input does not flood the output.
  static func shortened(_ text: String, limit: Int = 200) -> String {
    let count = text.count
    guard count > limit else { return text }
    return "\(text.prefix(limit))… (\(count) characters)"
  }

  /// A Lua value as a JSON-ready object: tables become objects, arrays arrays, nil null.
  static func json(_ value: LuaValue) -> Any {
    switch value {
    case .nil: return NSNull()
    case let .boolean(bool): return bool
    case let .integer(integer): return integer
    case let .number(number): return number.isFinite ? number : String(describing: number)
    case let .string(string): return string.string ?? string.lossyString
    case let .array(elements): return elements.map(json)
    case let .table(fields): return Dictionary(uniqueKeysWithValues: fields.map { ($0.key.lossyString, json($0.value)) })
    }
  }
}
