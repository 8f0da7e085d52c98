import Composable
import ConcurrencyExtras
import Foundation
import IssueReporting
import LuaBridge
@testable import LuaFeatures
import Testing

private final class IssueLog: IssueReporter {
  let entries = LockIsolated<[(message: String, severity: IssueSeverity)]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    let message = message() ?? ""
    entries.withValue { $0.append((message, severity)) }
  }
}

/// `lunar.shared(…, { storage = "file" })` never loses what it stored: a value that cannot be saved
/// fails its action, a file that cannot be read is never written, a file that cannot be used is
/// kept aside.
@MainActor
struct LuaSharedPersistenceTests {
  static let source = #"""
    local lunar = require "lunar"
    return lunar.feature {
      name = "Gauge",
      initial = { edits = 0 },
      shared = {
        settings = lunar.shared("settings", { default = { ratio = 1, title = "untitled" }, storage = "file" }),
        history = lunar.shared("history", { default = {}, storage = "file" }),
      },
      reduce = function(state, action)
        if action.type == "nanOnly" then state.settings.ratio = 0 / 0 return end
        state.edits = state.edits + 1
        if action.type == "setRatio" then state.settings.ratio = action.ratio end
        if action.type == "setKeys" then state.settings.keys = { ["\u{E9}"] = 1, ["e\u{301}"] = 2 } end
        if action.type == "breakRatio" then state.settings.ratio = 0 / 0 end
        if action.type == "breakTitle" then state.settings.title = "caf\xE9" end
        if action.type == "logAndBreak" then
          state.history[#state.history + 1] = "logged"
          state.settings.ratio = 1 / 0
        end
      end,
    }
    """#

  let storage: FileStorage
  let files: LockIsolated<[String: Data]>
  let saves = LockIsolated<Int>(0)
  let harness: FeatureHarness

  /// A harness whose shared files live in `files`; `unreadable` paths fail to load with `reason`.
  init(
    files: [String: Data] = [:], unreadable: Set<String> = [], claimedBy processID: Int32? = nil, diskFull: Bool = false
  ) throws {
    let files = LockIsolated(files)
    let saves = self.saves
    self.files = files
    self.storage = FileStorage(
      load: { url in
        if unreadable.contains(url.lastPathComponent) { throw FileSystemFailure("Permission denied") }
        return files[url.path]
      },
      save: { data, url in
        saves.withValue { $0 += 1 }
        if diskFull { throw FileSystemFailure("No space left on device") }
        files.withValue { $0[url.path] = data }
      },
      moveAside: { url, name in
        let target = url.deletingLastPathComponent().appendingPathComponent(name)
        files.withValue {
          $0[target.path] = $0[url.path]
          $0[url.path] = nil
        }
        return target
      },
      claim: { folder in
        if let processID { throw FolderInUseError(folder: folder, processID: processID) }
      }
    )
    harness = try FeatureHarness()
    harness.host.shared.reset(fileStorage: storage)
  }

  func path(_ key: String) -> String {
    harness.host.shared.folder.appendingPathComponent("\(key).json").path
  }

  func setting(_ state: LuaState, _ key: LuaString) -> LuaValue {
    state.value[LuaString("settings")][key]
  }

  func send(_ store: Store<LuaState, LuaValue>, _ action: LuaValue) {
    store.send(action)
  }

  @Test func aValueThatCannotBeSavedFailsTheActionAndKeepsTheState() throws {
    let feature = try harness.load(Self.source)
    let store = makeStore(feature.reducer(), state: feature.initialState)
    send(store, ["type": "setRatio", "ratio": 2])
    let saved = files.value[path("settings")]
    send(store, ["type": "breakRatio"])
    let error = try #require(harness.takeErrors().first)
    // NB: state refuses NaN when it is written (JSON cannot write it), before any save.
    let at = try #require(line(of: "breakRatio", in: Self.source))
    #expect(error.message == "feature.lua:\(at): cannot store NaN in state (at state.settings.ratio): "
      + "state is written as JSON (events, recordings, saved files), which has no NaN or infinities")
    #expect(store.state.edits == 1)
    #expect(setting(store.state, "ratio") == 2)
    #expect(files.value[path("settings")] == saved)
    send(store, ["type": "setRatio", "ratio": 3.5])
    #expect(harness.takeErrors().isEmpty)
    #expect(try LuaJSONDecoder().decode(Array(try #require(files.value[path("settings")]))) == ["ratio": 3.5, "title": "untitled"])
  }

  @Test func aSingleWriteThatCannotBeSavedIsRolledBackInTheVMToo() throws {
    let feature = try harness.load(Self.source)
    let reducer = feature.reducer()
    let store = makeStore(reducer, state: feature.initialState)
    send(store, ["type": "setRatio", "ratio": 2])
    send(store, ["type": "nanOnly"])
    #expect(harness.takeErrors().count == 1)
    #expect(setting(store.state, "ratio") == 2)
    #expect(try reducer.residentState() == store.state.value)
    send(store, ["type": "setRatio", "ratio": 4])
    #expect(setting(store.state, "ratio") == 4)
    #expect(try reducer.residentState() == store.state.value)
  }

  @Test func textThatIsNotUTF8IsRefusedWithItsPathAndByte() throws {
    let feature = try harness.load(Self.source)
    let store = makeStore(feature.reducer(), state: feature.initialState)
    send(store, ["type": "breakTitle"])
    let error = try #require(harness.takeErrors().first)
    #expect(error.message.hasSuffix(
      "cannot store a string that is not UTF-8 in state (at state.settings.title: byte 3 is 0xE9): state is written as "
        + "JSON (events, recordings, saved files), whose text is UTF-8; encode binary data as text first (hex, base64)"))
    #expect(setting(store.state, "title") == "untitled")
  }

  @Test func aFailedSaveLeavesNoSharedValueHalfChanged() throws {
    let feature = try harness.load(Self.source)
    let store = makeStore(feature.reducer(), state: feature.initialState)
    send(store, ["type": "logAndBreak"])
    #expect(harness.takeErrors().first?.message.hasSuffix(
      "cannot store infinity in state (at state.settings.ratio): state is written as JSON (events, recordings, saved files), "
        + "which has no NaN or infinities") == true)
    #expect(store.state.history == .table([:]))
    #expect(harness.host.shared.value(forKey: "history") == .table([:]))
    #expect(files.value[path("history")].map { String(decoding: $0, as: UTF8.self) } ?? "{}\n" == "{}\n")
  }

  @Test func keysThatAreOneSwiftStringStayTwoKeysInTheFile() throws {
    let feature = try harness.load(Self.source)
    send(makeStore(feature.reducer(), state: feature.initialState), ["type": "setKeys"])
    #expect(harness.takeErrors().isEmpty)
    let fresh = try FeatureHarness()
    fresh.host.shared.reset(fileStorage: storage)
    let keys = try fresh.load(Self.source).initialState.value[LuaString("settings")][LuaString("keys")]
    #expect(keys == .table([LuaString("\u{E9}"): 1, LuaString("e\u{301}"): 2]))
  }

  @Test func aWriteThatFailsFailsTheActionAndKeepsTheState() throws {
    let test = try Self(diskFull: true)
    let feature = try test.harness.load(Self.source)
    let store = makeStore(feature.reducer(), state: feature.initialState)
    test.send(store, ["type": "setRatio", "ratio": 2])
    #expect(test.harness.takeErrors().map(\.message) == [
      "lunar.shared(\"settings\") could not be saved to \(test.path("settings")): No space left on device"
    ])
    #expect(store.state.edits == 0)
    #expect(setting(store.state, "ratio") == 1)
  }

  @Test func aFileThatCannotBeReadIsReportedAndEveryChangeIsRefused() throws {
    let test = try Self(files: [path("settings"): Data("mine".utf8)], unreadable: ["settings.json"])
    let log = IssueLog()
    let feature = try test.harness.load(Self.source)
    let state = withIssueReporters([log]) { feature.initialState }
    #expect(setting(state, "ratio") == 1)
    #expect(log.entries.value.map(\.severity) == [.error])
    #expect(log.entries.value.first?.message == "\(test.path("settings")) cannot be read (Permission denied); it is left as it is, and changes to this value are not saved until it can be read")
    let store = makeStore(feature.reducer(), state: state)
    test.send(store, ["type": "setRatio", "ratio": 2])
    let error = try #require(test.harness.takeErrors().first)
    #expect(error.message == "lunar.shared(\"settings\") cannot be changed: \(test.path("settings")) could not be read when it was loaded (Permission denied), and saving would overwrite it. Fix or move the file, then restart.")
    #expect(store.state.edits == 0)
    #expect(test.saves.value == 0)
    #expect(test.files.value[test.path("settings")] == Data("mine".utf8))
  }

  @Test func aFileNestedDeeperThanTheDataLimitIsKeptAside() throws {
    let deep = Data(("{\"ratio\":1,\"n\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}").utf8)
    let test = try Self(files: [path("settings"): deep])
    let log = IssueLog()
    let feature = try test.harness.load(Self.source)
    let state = withIssueReporters([log]) { feature.initialState }
    #expect(setting(state, "ratio") == 1 && setting(state, "title") == "untitled")
    let aside = try #require(test.files.value.keys.first { $0.hasPrefix(test.path("settings") + ".corrupt-") })
    #expect(test.files.value[aside] == deep)
    #expect(log.entries.value.map(\.severity) == [.warning])
    #expect(log.entries.value.first?.message == "\(test.path("settings")) cannot be used (n[1][1][1][1][1]…(91 more)…[1][1][1]: nested deeper than the limit of 100 levels (at byte 114 of the text)); it was renamed to \(aside), and the default value is used.")
    test.send(makeStore(feature.reducer(), state: state), ["type": "setRatio", "ratio": 2])
    #expect(test.harness.takeErrors().isEmpty)
    #expect(test.files.value[test.path("settings")] != nil)
  }

  @Test func aFileOfAnotherKindThanTheDefaultIsKeptAside() throws {
    let test = try Self(files: [path("settings"): Data(#""dark""#.utf8)])
    let log = IssueLog()
    let state = try withIssueReporters([log]) { try test.harness.load(Self.source).initialState }
    #expect(setting(state, "ratio") == 1)
    #expect(log.entries.value.first?.message.contains("cannot be used (it holds a string, but the declared default is a table)") == true)
  }

  @Test func aFileWithAKeyTwiceIsKeptAside() throws {
    let test = try Self(files: [path("settings"): Data(#"{"ratio":1,"ratio":2}"#.utf8)])
    let log = IssueLog()
    _ = try withIssueReporters([log]) { try test.harness.load(Self.source).initialState }
    #expect(log.entries.value.first?.message.contains(#"cannot be used (value: the key "ratio" appears twice in one object (at byte 11 of the text))"#) == true)
    #expect(test.files.value.keys.contains { $0.hasPrefix(test.path("settings") + ".corrupt-") })
  }

  @Test func aFolderClaimedByAnotherHostFailsTheLoad() throws {
    let test = try Self(claimedBy: 4242)
    let error = #expect(throws: LuaFeatureError.self) { try test.harness.load(Self.source) }
    #expect(error?.kind == .load)
    #expect(error?.message == """
      feature Gauge: lunar.shared("history") is kept in \(test.harness.host.shared.folder.path), which another lunar host \
      (pid 4242) is using; two hosts would overwrite each other's changes. Stop the other host, or run this one with its \
      own data folder (XDG_DATA_HOME).
      """)
  }
}

private struct FileSystemFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
