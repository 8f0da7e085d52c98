import Foundation
import LuaBridge
import LuaFeatures

/// A session written by ``Recorder`` (`lunar run --record FILE`), read back: everything needed to
/// run it again without the live world — the state it started from (shared values included), the
/// contents of `deps.storage` then, every action with the state after it, and what each dependency
/// answered, in order.
///
/// ```swift
/// let recording = try Recording(contentsOf: "session.jsonl")
/// recording.steps.count            // every action the feature reduced, from input and from effects
/// recording.results["http.get"]    // what deps.http.get answered, call by call
/// ```
///
/// ``Replay`` runs it again; ``RecordingTestWriter`` turns it into a `*_test.lua`.
package struct Recording {
  /// One action the feature reduced.
  package struct Step {
    /// Typed in (or piped), or sent by an effect.
    package var fromInput: Bool
    package var action: LuaValue
    /// The state right after the action; `nil` in recordings of earlier versions for actions of
    /// effects.
    package var state: LuaValue?
    /// Seconds since the session started, when the action came.
    package var time: Double?
  }

  /// How the session ended.
  package struct End {
    /// Seconds since the session started.
    package var time: Double
    /// Effects still running then (they were cancelled when the session stopped).
    package var running: Int
  }

  /// The feature script, as `lunar run` was given it.
  package var feature: String
  package var seed: UInt64
  /// The format's version: 1 (early recordings: no initial state, no times) or 2.
  package var version = 1
  /// The Lua clients the feature uses, which a test runs for real over mocked capabilities.
  package var clients: [String] = []
  /// The state the session started from, shared values included; `nil` in version 1.
  package var initialState: LuaValue?
  /// The `deps.storage` document when the session started (`nil`: none, or not recorded).
  package var storage: LuaValue?
  /// Every action the feature reduced, in order.
  package var steps: [Step] = []
  /// Recorded dependency results, by name, in call order.
  package var results: [String: [RecordedResult]] = [:]
  /// For each result of ``results``, when it answered (`nil` for synchronous calls and earlier
  /// recordings): replay answers a call no earlier.
  package var answeredAfter: [String: [ReplayGate?]] = [:]
  /// For each result of ``results``, the arguments of its call (`nil` when the line has none).
  package var argumentsOf: [String: [[LuaValue]?]] = [:]
  /// Errors the session showed (reducer, effect, input): a faithful replay shows as many.
  package var errors = 0
  package var end: End?

  /// Input actions, each with how many actions effects had sent before it: replay waits for them.
  package var inputs: [(action: LuaValue, effectActionsBefore: Int)] {
    var effects = 0
    var inputs: [(LuaValue, Int)] = []
    for step in steps {
      if step.fromInput { inputs.append((step.action, effects)) } else { effects += 1 }
    }
    return inputs
  }

  /// How many actions effects sent in the whole recording.
  package var effectActions: Int { steps.count { !$0.fromInput } }

  /// Reads a recording file.
  package init(contentsOf path: String) throws {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw RecordError("cannot read \(path)")
    }
    try self.init(text: text, name: path)
  }

  /// Reads a recording from its text; `name` is what errors call it (`session.jsonl:3: …`).
  package init(text: String, name: String) throws {
    var feature: String?
    // NB: asynchronous calls are written when they answer, with their place among the calls:
    //     put back in call order, the order replay makes them in.
    var calls: [String: [(call: Int?, result: RecordedResult, gate: ReplayGate?, arguments: LuaValue)]] = [:]
    seed = 0
    self.feature = ""
    let decoder = LuaJSONDecoder(depthLimit: JSONText.depthLimit)
    for (number, line) in text.split(separator: "\n").enumerated() {
      let object: LuaValue
      do {
        object = try decoder.decode(Array(line.utf8))
      } catch {
        throw RecordError("\(name):\(number + 1): not a line of a recording: \(error)")
      }
      guard let kind = object["kind"].stringValue else {
        throw RecordError("\(name):\(number + 1): not a line of a recording (it has no \"kind\")")
      }
      let time = object["t"].numberValue
      switch kind {
      case "session":
        feature = object["feature"].stringValue
        seed = UInt64(bitPattern: object["seed"].integerValue ?? 0)
        version = Int(object["version"].integerValue ?? 1)
        clients = (object["clients"].arrayValue ?? []).compactMap(\.stringValue)
        initialState = object["state"].isNil ? nil : object["state"]
        storage = object["storage"].isNil ? nil : object["storage"]
      case "unrecorded":
        let message = object["message"].stringValue ?? "a value could not be written"
        throw RecordError("\(name):\(number + 1): this session was not fully recorded: \(message)")
      case "action":
        steps.append(Step(fromInput: true, action: object["action"], time: time))
      case "effectAction":
        steps.append(Step(fromInput: false, action: object["action"], time: time))
      case "state":
        if !steps.isEmpty { steps[steps.count - 1].state = object["state"] }
      case "dependency":
        guard let dependency = object["name"].stringValue else { continue }
        let call = object["call"].integerValue.map(Int.init)
        let gate = object["after"].integerValue.map { ReplayGate(after: Int($0), answer: object["answer"].integerValue.map(Int.init)) }
        calls[dependency, default: []].append((call, RecordedResult(line: object), gate, object["arguments"]))
      case "error":
        errors += 1
      case "end":
        end = End(time: time ?? 0, running: Int(object["running"].integerValue ?? 0))
      default:
        continue
      }
    }
    guard let feature else { throw RecordError("\(name): no session line") }
    self.feature = feature
    for (dependency, list) in calls {
      let ordered = list.enumerated().sorted { ($0.element.call ?? $0.offset, $0.offset) < ($1.element.call ?? $1.offset, $1.offset) }
      results[dependency] = ordered.map(\.element.result)
      answeredAfter[dependency] = ordered.map(\.element.gate)
      argumentsOf[dependency] = ordered.map { $0.element.arguments.arrayValue }
    }
  }

  /// Whether two states are the same, taking `3` for `3.0`: recordings made by earlier versions of
  /// lunar wrote floats with integral values without their point.
  package static func sameThroughJSON(_ lhs: LuaValue, _ rhs: LuaValue) -> Bool {
    func normalized(_ value: LuaValue) -> LuaValue {
      switch value {
      case let .number(number): return Int64(exactly: number).map(LuaValue.integer) ?? value
      case let .array(elements): return .array(elements.map(normalized))
      case let .table(fields): return .table(fields.mapValues(normalized))
      default: return value
      }
    }
    return lhs == rhs || normalized(lhs) == normalized(rhs)
  }

  /// Dependencies answering each call with the next recorded result for its name: nothing live is
  /// reached (no file, no network, no clock).
  package func replaying(_ names: [String], kinds: LuaDependencies) -> (LuaDependencies, ReplayQueue) {
    let queue = ReplayQueue(results, answeredAfter: answeredAfter, arguments: argumentsOf)
    var dependencies = LuaDependencies()
    for name in names {
      switch kinds.functions[name]! {
      case .sync:
        dependencies.register(name, .sync { arguments in try queue.next(name, arguments: arguments) })
      case .async:
        dependencies.register(name, .async { arguments in try await queue.nextAwaiting(name, arguments: arguments) })
      }
    }
    return (dependencies, queue)
  }
}

/// When an asynchronous call answered in the session: after `after` actions, as the `answer`th
/// answer of all (cancelled calls aside; `nil` in recordings that did not number them).
package struct ReplayGate: Sendable, Equatable {
  package var after: Int
  package var answer: Int?
}

/// A recorded dependency result: a value, the error the call threw, or a call that was cancelled
/// before it answered (the session stopped, or its effect was cancelled).
package enum RecordedResult: Sendable, Equatable {
  case value(LuaValue)
  case error(String)
  case cancelled

  package init(line: LuaValue) {
    if line["cancelled"].boolValue == true {
      self = .cancelled
    } else if let message = line["error"].stringValue {
      self = .error(message)
    } else {
      self = .value(line["result"])
    }
  }
}

package struct RecordError: Error, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}
