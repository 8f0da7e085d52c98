import ConcurrencyExtras
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// Writes a session as JSON lines — the state it starts from, every action (typed or sent by an
/// effect) with the state after it, and every dependency call with its result — so that
/// `lunar replay` can run it again without the live world, and `lunar replay --as-test` can turn
/// it into a test.
///
/// ```
/// {"kind":"session","version":2,"feature":"examples/counter/feature.lua","seed":0,"clients":["factClient"],"state":{…}}
/// {"kind":"action","t":0.0012,"action":{"type":"factTapped"}}
/// {"kind":"state","state":{"count":0,"loading":true,…}}
/// {"kind":"dependency","t":0.0031,"name":"http.get","arguments":["http://numbersapi.com/0"],"result":{"body":"0 is …",…}}
/// {"kind":"effectAction","t":0.0033,"action":{"type":"factLoaded","fact":"0 is …"}}
/// {"kind":"state","state":{…}}
/// {"kind":"end","t":0.0051,"running":0}
/// ```
///
/// `t` is seconds since the session started. An asynchronous call is written when it answers, with
/// `call`, its place among the calls of its name (`clock.sleep` calls from two effects answer in
/// another order than they were made), `after`, how many actions had come by then, and `answer`, its
/// place among the answers of every asynchronous call: replay hands each call its own answer, and
/// answers it only once as many actions came and the answers before it were given (see ``ReplayQueue``).
/// A call whose effect was cancelled (at the end of the
/// session, say) is written `"cancelled":true`: replay leaves it waiting, as it was, rather than
/// failing it. Values are written exactly (``LuaJSONEncoder``); one JSON cannot hold (text that is
/// not UTF-8, NaN) is reported through ``onError``, and an `unrecorded` line takes its place, so
/// that replaying the recording fails clearly instead of diverging without a reason.
@MainActor
final class Recorder {
  private let handle: FileHandle
  private let started = ContinuousClock.now
  /// How many actions were recorded so far, read when an asynchronous call answers.
  private let actions = LockIsolated(0)
  /// How many calls of each asynchronous dependency were made so far.
  private let calls = LockIsolated<[String: Int]>([:])
  /// How many asynchronous calls answered so far (cancelled ones aside).
  private let answers = LockIsolated(0)
  /// Told when a line could not be recorded.
  var onError: ((String) -> Void)?

  init(path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw RecordError("cannot write \(path)")
    }
    self.handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  }

  /// Writes the first line: the feature and what it starts from.
  func begin(feature: String, seed: UInt64, clients: [String], state: LuaState, storage: LuaValue?) {
    // NB: the seed's bits as a signed integer: every UInt64 seed reads back exactly.
    var line: [String: LuaValue] = [
      "kind": "session", "version": 2, "feature": .text(feature), "seed": .integer(Int64(bitPattern: seed)),
      "clients": .array(clients.map { .text($0) }), "state": state.value,
    ]
    if let storage { line["storage"] = storage }
    write(line)
  }

  func action(_ action: LuaValue) {
    actions.withValue { $0 += 1 }
    write(["kind": "action", "t": .number(now), "action": action])
  }

  func effectAction(_ action: LuaValue) {
    actions.withValue { $0 += 1 }
    write(["kind": "effectAction", "t": .number(now), "action": action])
  }

  func state(_ state: LuaState) {
    write(["kind": "state", "state": state.value])
  }

  func error(_ message: String) {
    write(["kind": "error", "t": .number(now), "message": .text(message)])
  }

  /// Writes the last line: how many effects were still running.
  func end(running: Int) {
    write(["kind": "end", "t": .number(now), "running": .integer(Int64(running))])
  }

  private var now: Double { Self.seconds(ContinuousClock.now - started) }

  nonisolated private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    // NB: microseconds are plenty, and keep the lines short.
    return ((Double(seconds) + Double(attoseconds) * 1e-18) * 1e6).rounded() / 1e6
  }

  nonisolated func dependency(
    _ name: String, arguments: [LuaValue], result: RecordedResult, at instant: ContinuousClock.Instant, call: Int? = nil
  ) {
    var line: [String: LuaValue] = [
      "kind": "dependency", "name": .text(name), "arguments": .array(arguments), "t": .number(Self.seconds(instant - started)),
    ]
    if let call {
      line["call"] = .integer(Int64(call))
      line["after"] = .integer(Int64(actions.value))
      // NB: two calls can answer before the actions they lead to come: their order decides.
      if result != .cancelled {
        line["answer"] = .integer(Int64(answers.withValue { answers in
          answers += 1
          return answers
        }))
      }
    }
    switch result {
    case let .value(value): line["result"] = value
    case let .error(message): line["error"] = .text(message)
    case .cancelled: line["cancelled"] = true
    }
    let text = Line(line)
    Task { @MainActor in self.append(text) }
  }

  private func write(_ object: [String: LuaValue]) {
    append(Line(object))
  }

  /// A line of the recording, or why it cannot be written.
  private enum Line: Sendable {
    case text(String)
    case unwritable(String)

    init(_ object: [String: LuaValue]) {
      do {
        self = .text(try JSONText.line(object))
      } catch {
        self = .unwritable(JSONText.unwritable(object, error))
      }
    }
  }

  private func append(_ line: Line) {
    switch line {
    case let .text(text):
      handle.write(Data((text + "\n").utf8))
    case let .unwritable(message):
      onError?("not recorded: \(message)")
      // NB: the message is Swift text (valid UTF-8) and the kind fixed: this line can always be written.
      let line = (try? JSONText.line(["kind": "unrecorded", "message": .text(message)])) ?? #"{"kind":"unrecorded"}"#
      handle.write(Data((line + "\n").utf8))
    }
  }

  /// `dependencies`, each function recording its calls here.
  func recording(_ dependencies: LuaDependencies) -> LuaDependencies {
    var recorded = LuaDependencies()
    for name in dependencies.names {
      switch dependencies.functions[name]! {
      case let .sync(function):
        recorded.register(name, .sync { [self] arguments in
          do {
            let value = try function(arguments)
            self.dependency(name, arguments: arguments, result: .value(value), at: .now)
            return value
          } catch {
            self.dependency(name, arguments: arguments, result: .error("\(error)"), at: .now)
            throw error
          }
        })
      case let .async(function):
        recorded.register(name, .async { [self] arguments in
          let call = self.calls.withValue { calls in
            calls[name, default: 0] += 1
            return calls[name]!
          }
          do {
            let value = try await function(arguments)
            self.dependency(name, arguments: arguments, result: .value(value), at: .now, call: call)
            return value
          } catch {
            // NB: a cancelled call is not a failure of the dependency: the effect was stopped.
            let cancelled = error is CancellationError || Task.isCancelled
            self.dependency(
              name, arguments: arguments, result: cancelled ? .cancelled : .error("\(error)"), at: .now, call: call)
            throw error
          }
        })
      }
    }
    return recorded
  }

  /// The Lua clients `feature` uses (`factClient`), from their methods (`factClient.fetch`).
  static func clients(of feature: LuaFeature) -> [String] {
    var names: [String] = []
    for method in feature.clientNames {
      let name = String(method.prefix { $0 != "." })
      if !names.contains(name) { names.append(name) }
    }
    return names
  }

  /// The `deps.storage` document at `file`, as recorded at the start of a session (`nil` when
  /// there is none or it cannot be read: the calls' results are recorded anyway).
  static func storageContents(at file: URL) -> LuaValue? {
    guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
    return try? LuaJSONDecoder(depthLimit: JSONText.depthLimit).decode(Array(data))
  }
}
