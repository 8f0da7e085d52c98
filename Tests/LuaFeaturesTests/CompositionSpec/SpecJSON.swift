import Foundation
import LuaBridge

/// A JSON value: the one notation of the composition spec. Actions and states of both executions
/// are converted to it and compared in it.
enum SpecJSON: Equatable, Sendable, Codable, CustomStringConvertible {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([SpecJSON])
  case object([String: SpecJSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([SpecJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: SpecJSON].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case let .bool(value): try container.encode(value)
    case let .int(value): try container.encode(value)
    case let .double(value): try container.encode(value)
    case let .string(value): try container.encode(value)
    case let .array(value): try container.encode(value)
    case let .object(value): try container.encode(value)
    }
  }

  /// The JSON of an `Encodable` value (how the Swift execution's state is read).
  init(encoding value: some Encodable) throws {
    self = try JSONDecoder().decode(SpecJSON.self, from: JSONEncoder().encode(value))
  }

  /// The JSON of a Lua value. A table with keys 1…n is an array; an empty table is an empty array
  /// (the spec's feature has no empty records, only empty lists).
  init(_ value: LuaValue) {
    switch value {
    case .nil: self = .null
    case let .boolean(value): self = .bool(value)
    case let .integer(value): self = .int(Int(value))
    case let .number(value): self = .double(value)
    case .string: self = .string(value.stringValue ?? "")
    case let .array(elements): self = .array(elements.map(SpecJSON.init))
    case let .table(fields):
      if fields.isEmpty {
        self = .array([])
      } else {
        var object: [String: SpecJSON] = [:]
        for (key, field) in fields { object[key.description] = SpecJSON(field) }
        self = .object(object)
      }
    }
  }

  /// The Lua value of this JSON (how an action of the table reaches the Lua execution).
  var luaValue: LuaValue {
    switch self {
    case .null: .nil
    case let .bool(value): .boolean(value)
    case let .int(value): .integer(Int64(value))
    case let .double(value): .number(value)
    case let .string(value): .text(value)
    case let .array(elements): .array(elements.map(\.luaValue))
    case let .object(fields):
      .table(Dictionary(uniqueKeysWithValues: fields.map { (LuaString($0.key), $0.value.luaValue) }))
    }
  }

  /// This value with `patch` applied as a JSON merge patch (RFC 7386): an object patches an object
  /// field by field, `null` removes a field, anything else replaces the value.
  func merging(_ patch: SpecJSON) -> SpecJSON {
    guard case let .object(changes) = patch else { return patch }
    var fields: [String: SpecJSON] = [:]
    if case let .object(current) = self { fields = current }
    for (key, change) in changes {
      if change == .null {
        fields[key] = nil
      } else {
        fields[key] = (fields[key] ?? .null).merging(change)
      }
    }
    return .object(fields)
  }

  subscript(key: String) -> SpecJSON? {
    guard case let .object(fields) = self else { return nil }
    return fields[key]
  }

  var string: String? {
    if case let .string(value) = self { value } else { nil }
  }

  var int: Int? {
    if case let .int(value) = self { value } else { nil }
  }

  var description: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "?"
  }
}

/// A scenario or a value the spec cannot read: the message says which and why.
struct SpecError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension SpecJSON: ExpressibleByStringLiteral {
  init(stringLiteral value: String) { self = .string(value) }
}
