import Composable
import ComposableTesting
import Foundation
import LuaBridge
@testable import LuaFeatures
import Testing

/// `deps.storage`: a feature's own key-value store, persisted as one JSON document that is never
/// lost silently.
@MainActor
@Suite struct StorageCapabilityTests {
  static let file = URL(fileURLWithPath: "/data/lunar/storage/notes.json")

  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx
    return lunar.feature {
      name = "Notes", initial = {},
      reduce = function(state, action, deps)
        if action.type == "run" then
          return fx.run(function(send)
            local ok, result = pcall(function() return load("return " .. action.code, "code", "t", { deps = deps })() end)
            send { type = "done", ok = ok, result = result }
          end)
        elseif action.type == "done" then
          state.ok, state.result = action.ok, action.result
        end
      end,
    }
    """

  /// Runs `code` (an expression over `deps`) in an effect; returns whether it succeeded and its result.
  func run(_ code: String, storage: FileStorage) async throws -> (Bool, LuaValue) {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.storage(file: Self.file, fileStorage: storage))
    let harness = try FeatureHarness(dependencies: dependencies)
    let feature = try harness.load(Self.source, chunkName: "notes.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    store.exhaustivity = .off
    await store.send(["type": "run", "code": .text(code)])
    await store.receive({ $0[LuaString("type")] == "done" })
    return (store.state.ok == true, store.state.result)
  }

  func document(_ storage: FileStorage) throws -> String? {
    try storage.load(Self.file).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test func setThenGetReturnsTheValueAndTheDocumentHoldsIt() async throws {
    let storage = FileStorage.inMemory()
    #expect(try await run(#"(function() deps.storage.set("draft", { title = "milk", n = 2 }) return deps.storage.get("draft") end)()"#, storage: storage)
      == (true, ["title": "milk", "n": 2]))
    #expect(try document(storage) == "{\n  \"draft\": {\n    \"n\": 2,\n    \"title\": \"milk\"\n  }\n}\n")
  }

  @Test func aMissingKeyIsNil() async throws {
    #expect(try await run(#"deps.storage.get("nothing") == nil"#, storage: .inMemory()) == (true, true))
  }

  @Test func keysAreSortedAndDeleteRemovesOne() async throws {
    let storage = FileStorage.inMemory([Self.file.path: Data(#"{"b": 1, "a": 2, "c": 3}"#.utf8)])
    let result = try await run(#"(function() deps.storage.delete("b") return deps.storage.keys() end)()"#, storage: storage)
    #expect(result == (true, ["a", "c"]), "\(result)")
    #expect(try document(storage) == "{\n  \"a\": 2,\n  \"c\": 3\n}\n")
  }

  @Test func aValueJSONCannotHoldIsRefusedAndTheDocumentKept() async throws {
    let storage = FileStorage.inMemory([Self.file.path: Data(#"{"ratio": 2}"#.utf8)])
    let (ok, message) = try await run(#"deps.storage.set("ratio", 0/0)"#, storage: storage)

    #expect(!ok)
    #expect(message.stringValue?.contains(#"deps.storage.set failed: cannot save "ratio" to /data/lunar/storage/notes.json: storage.ratio: NaN (not a number) is not a JSON number"#) == true, "\(message)")
    #expect(try document(storage) == #"{"ratio": 2}"#)
  }

  @Test func aDocumentThatCannotBeReadIsNeverWrittenOver() async throws {
    var storage = FileStorage.inMemory([Self.file.path: Data(#"{"kept": true}"#.utf8)])
    let original = storage
    storage.load = { _ in throw CocoaError(.fileReadNoPermission) }
    let (ok, message) = try await run(#"deps.storage.set("x", 1)"#, storage: storage)

    #expect(!ok)
    #expect(message.stringValue?.contains("/data/lunar/storage/notes.json cannot be read") == true, "\(message)")
    #expect(try document(original) == #"{"kept": true}"#)
  }

  @Test func aDocumentThatIsNotAnObjectIsLeftAsItIs() async throws {
    let storage = FileStorage.inMemory([Self.file.path: Data("[1, 2]".utf8)])
    let (ok, message) = try await run(#"deps.storage.set("x", 1)"#, storage: storage)

    #expect(!ok)
    #expect(message.stringValue?.contains("holds table, not an object of keys; it is left as it is") == true, "\(message)")
    #expect(try document(storage) == "[1, 2]")
  }

  @Test func aFolderClaimedByAnotherHostIsAnErrorAndNothingIsWritten() async throws {
    var storage = FileStorage.inMemory()
    storage.claim = { folder in throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: folder.path]) }
    let (ok, _) = try await run(#"deps.storage.set("x", 1)"#, storage: storage)

    #expect(!ok)
    #expect(try document(storage) == nil)
  }

  @Test(arguments: [#"deps.storage.get("")"#, "deps.storage.set(3, 1)"])
  func aKeyMustBeANonEmptyString(_ code: String) async throws {
    let (ok, message) = try await run(code, storage: .inMemory())
    #expect(!ok)
    #expect(message.stringValue?.contains("expects a key (a non-empty string)") == true, "\(message)")
  }
}
