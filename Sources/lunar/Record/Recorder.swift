import ConcurrencyExtras
import Foundation
import LuaBridge
import LuaFeatures

/// Writes a session as JSON lines — the feature, each input action with the state after it, the
/// actions effects sent, and every dependency call with its result — so `lunar replay` can run it
/// again with the same dependency results.
///
/// ```
/// {"kind":"session","feature":"examples/counter/feature.lua","seed":0,"version":1}
/// {"kind":"action","action":{"type":"factTapped"}}
/// {"kind":"dependency","name":"http.get","arguments":["http://numbersapi.com/0"],"result":{"body":"0 is …",…}}
/// ```
///
/// Values are written exactly (``LuaJSONEncoder``). One that JSON cannot hold (text that is not
/// UTF-8, NaN) is reported through ``onError``, and an `unrecorded` line takes its place, so that
/// replaying the recording fails clearly instead of diverging without a reason.
@MainActor
final class Recorder {
  private let handle: FileHandle
  /// Told when a line could not be recorded.
  var onError: ((String) -> Void)?

  init(path: String, feature: String, seed: UInt64) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw RecordError("cannot write \(path)")
    }
    self.handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    // NB: the seed's bits as a signed integer: every UInt64 seed reads back exactly.
    write(["kind": "session", "feature": feature, "seed": Int64(bitPattern: seed), "version": 1])
  }

  func action(_ action: LuaValue) {
    write(["kind": "action", "action": action])
  }

  func effectAction(_ action: LuaValue) {
    write(["kind": "effectAction", "action": action])
  }

  func state(_ state: LuaState) {
    write(["kind": "state", "state": state.value])
  }

  nonisolated func dependency(_ name: String, arguments: [LuaValue], result: RecordedResult) {
    var line: [String: Any] = ["kind": "dependency", "name": name, "arguments": LuaValue.array(arguments)]
    switch result {
    case let .value(value): line["result"] = value
    case let .error(message): line["error"] = message
    }
    let text = Line(line)
    Task { @MainActor in self.append(text) }
  }

  private func write(_ object: [String: Any]) {
    append(Line(object))
  }

  /// A line of the recording, or why it cannot be written.
  private enum Line: Sendable {
    case text(String)
    case unwritable(String)

    init(_ object: [String: Any]) {
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
      handle.write(Data((JSONText.encode(["kind": "unrecorded", "message": message]) + "\n").utf8))
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
            self.dependency(name, arguments: arguments, result: .value(value))
            return value
          } catch {
            self.dependency(name, arguments: arguments, result: .error("\(error)"))
            throw error
          }
        })
      case let .async(function):
        recorded.register(name, .async { [self] arguments in
          do {
            let value = try await function(arguments)
            self.dependency(name, arguments: arguments, result: .value(value))
            return value
          } catch {
            self.dependency(name, arguments: arguments, result: .error("\(error)"))
            throw error
          }
        })
      }
    }
    return recorded
  }
}

struct RecordError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
