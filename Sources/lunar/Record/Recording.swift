import Foundation
import LuaBridge
import LuaFeatures

/// A session written by ``Recorder``, read back.
struct Recording {
  var feature: String
  var seed: UInt64
  /// Input actions, each with the state recorded right after it and how many actions effects had
  /// sent before it.
  var steps: [(action: LuaValue, state: LuaValue?, effectActionsBefore: Int)] = []
  /// How many actions effects sent in the whole recording.
  var effectActions = 0
  /// Recorded dependency results, by name, in call order.
  var results: [String: [RecordedResult]] = [:]

  init(contentsOf path: String) throws {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw RecordError("cannot read \(path)")
    }
    var feature: String?
    var seed: UInt64 = 0
    let decoder = LuaJSONDecoder(depthLimit: JSONText.depthLimit)
    for (number, line) in text.split(separator: "\n").enumerated() {
      let object: LuaValue
      do {
        object = try decoder.decode(Array(line.utf8))
      } catch {
        throw RecordError("\(path):\(number + 1): not a line of a recording: \(error)")
      }
      guard let kind = object[LuaString("kind")].stringValue else {
        throw RecordError("\(path):\(number + 1): not a line of a recording (it has no \"kind\")")
      }
      switch kind {
      case "session":
        feature = object[LuaString("feature")].stringValue
        seed = UInt64(bitPattern: object[LuaString("seed")].integerValue ?? 0)
      case "unrecorded":
        let message = object[LuaString("message")].stringValue ?? "a value could not be written"
        throw RecordError("\(path):\(number + 1): this session was not fully recorded: \(message)")
      case "action":
        steps.append((object[LuaString("action")], nil, effectActions))
      case "effectAction":
        effectActions += 1
      case "state":
        if !steps.isEmpty { steps[steps.count - 1].state = object[LuaString("state")] }
      case "dependency":
        guard let name = object[LuaString("name")].stringValue else { continue }
        if let error = object[LuaString("error")].stringValue {
          results[name, default: []].append(.error(error))
        } else {
          results[name, default: []].append(.value(object[LuaString("result")]))
        }
      default:
        continue
      }
    }
    guard let feature else { throw RecordError("\(path): no session line") }
    self.feature = feature
    self.seed = seed
  }

  /// Whether two states are the same, taking `3` for `3.0`: recordings made by earlier versions of
  /// lunar wrote floats with integral values without their point.
  static func sameThroughJSON(_ lhs: LuaValue, _ rhs: LuaValue) -> Bool {
    func normalized(_ value: LuaValue) -> LuaValue {
      switch value {
      case let .number(number): return Int64(exactly: number).map(LuaValue.integer) ?? value
      case let .array(elements): return .array(elements.map(normalized))
      case let .table(fields): return .table(fields.mapValues(normalized))
      default: return value
      }
    }
    return normalized(lhs) == normalized(rhs)
  }

  /// Dependencies answering each call with the next recorded result for its name.
  func replaying(_ names: [String], kinds: LuaDependencies) -> LuaDependencies {
    let queue = ReplayQueue(results)
    var dependencies = LuaDependencies()
    for name in names {
      switch kinds.functions[name]! {
      case .sync:
        dependencies.register(name, .sync { _ in try queue.next(name) })
      case .async:
        dependencies.register(name, .async { _ in try queue.next(name) })
      }
    }
    return dependencies
  }
}

/// The recorded results still to hand out.
final class ReplayQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [String: [RecordedResult]]

  init(_ results: [String: [RecordedResult]]) {
    self.results = results
  }

  func next(_ name: String) throws -> LuaValue {
    lock.lock()
    defer { lock.unlock() }
    guard var queue = results[name], !queue.isEmpty else {
      throw RecordError("deps.\(name) was called more often than in the recording")
    }
    let result = queue.removeFirst()
    results[name] = queue
    switch result {
    case let .value(value): return value
    case let .error(message): throw RecordError(message)
    }
  }
}

/// A recorded dependency result: a value, or the error the call threw.
enum RecordedResult: Sendable {
  case value(LuaValue)
  case error(String)
}
