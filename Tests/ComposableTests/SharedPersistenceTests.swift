import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting
import Testing

private struct Settings: Equatable, Codable, Sendable {
  var theme = "light"
  var fontSize = 12
}

struct SharedPersistenceTests {
  @Test func fileStorageSurvivesANewProcess() throws {
    let disk = Disk()
    defer { disk.remove() }
    disk.freshProcess {
      let settings = Shared(wrappedValue: Settings(), .fileStorage(disk.url("settings.json")))
      settings.theme.withLock { $0 = "dark" }
    }
    let loaded = disk.freshProcess {
      Shared(wrappedValue: Settings(), .fileStorage(disk.url("settings.json"))).value
    }
    #expect(loaded == Settings(theme: "dark"))
    #expect(disk.names() == ["settings.json"])
  }

  @Test func aMissingFileGivesTheDefaultSilently() {
    let disk = Disk()
    defer { disk.remove() }
    let log = IssueLog()
    let value = withIssueReporters([log]) {
      disk.freshProcess { Shared(wrappedValue: Settings(), .fileStorage(disk.url("none.json"))).value }
    }
    #expect(value == Settings())
    #expect(log.entries.value.isEmpty)
  }

  @Test func aCorruptFileGivesTheDefaultIsReportedAndIsKeptAside() throws {
    let disk = Disk()
    defer { disk.remove() }
    try FileManager.default.createDirectory(at: disk.folder, withIntermediateDirectories: true)
    try Data(#"{"theme": "dark", "fontSi"#.utf8).write(to: disk.url("settings.json"))
    let log = IssueLog()
    let value = withIssueReporters([log]) {
      disk.freshProcess {
        Shared(wrappedValue: Settings(), .fileStorage(disk.url("settings.json"))).value
      }
    }
    #expect(value == Settings())
    let names = disk.names()
    #expect(names.count == 1)
    let aside = try #require(names.first)
    #expect(aside.hasPrefix("settings.json.corrupt-"))
    let issue = try #require(log.entries.value.first)
    #expect(issue.severity == .warning)
    #expect(issue.message.hasPrefix("\(disk.url("settings.json").path) cannot be used ("))
    #expect(issue.message.hasSuffix("; it was renamed to \(disk.url(aside).path), and the default value is used."))
    #expect(try String(contentsOf: disk.url(aside), encoding: .utf8) == #"{"theme": "dark", "fontSi"#)
  }

  @Test func aChangeAfterACorruptLoadDoesNotOverwriteTheCorruptFile() throws {
    let disk = Disk()
    defer { disk.remove() }
    try FileManager.default.createDirectory(at: disk.folder, withIntermediateDirectories: true)
    try Data("garbage".utf8).write(to: disk.url("settings.json"))
    withIssueReporters([]) {
      disk.freshProcess {
        let settings = Shared(wrappedValue: Settings(), .fileStorage(disk.url("settings.json")))
        settings.theme.withLock { $0 = "dark" }
      }
    }
    let names = disk.names()
    #expect(names.count == 2)
    let aside = try #require(names.first { $0.hasPrefix("settings.json.corrupt-") })
    #expect(try String(contentsOf: disk.url(aside), encoding: .utf8) == "garbage")
  }

  /// A crash in the middle of a save leaves the temporary file written so far, never renamed. The
  /// next load reads the last complete save and removes the leftover.
  @Test func anInterruptedWriteLeavesTheLastGoodValue() throws {
    let disk = Disk()
    defer { disk.remove() }
    disk.freshProcess {
      let settings = Shared(wrappedValue: Settings(), .fileStorage(disk.url("settings.json")))
      settings.fontSize.withLock { $0 = 14 }
    }
    // NB: What a process killed between writing and renaming leaves behind: a torn temporary file.
    let torn = disk.url(".settings.json.tmp-\(UUID().uuidString)")
    try Data(#"{"fontSize": 16, "the"#.utf8).write(to: torn)
    let log = IssueLog()
    let loaded = withIssueReporters([log]) {
      disk.freshProcess {
        Shared(wrappedValue: Settings(), .fileStorage(disk.url("settings.json"))).value
      }
    }
    #expect(loaded == Settings(fontSize: 14))
    #expect(log.entries.value.isEmpty)
    #expect(disk.names() == ["settings.json"])
  }

  @Test func manySavesLeaveOnlyTheTargetFile() {
    let disk = Disk()
    defer { disk.remove() }
    disk.freshProcess {
      let count = Shared(wrappedValue: 0, .fileStorage(disk.url("count.json")))
      for _ in 1...50 { count.withLock { $0 += 1 } }
    }
    #expect(disk.names() == ["count.json"])
    #expect(disk.freshProcess { Shared(wrappedValue: 0, .fileStorage(disk.url("count.json"))).value } == 50)
  }

  @Test func appStorageKeepsSimpleValuesInOneFile() throws {
    let disk = Disk()
    defer { disk.remove() }
    let store = disk.url("app-storage.json")
    disk.freshProcess {
      let launches = Shared(wrappedValue: 0, .appStorage("launches", url: store))
      let name = Shared(wrappedValue: "", .appStorage("name", url: store))
      launches.withLock { $0 += 1 }
      name.withLock { $0 = "Ada" }
    }
    let (launches, name) = disk.freshProcess {
      (
        Shared(wrappedValue: 0, .appStorage("launches", url: store)).value,
        Shared(wrappedValue: "", .appStorage("name", url: store)).value
      )
    }
    #expect(launches == 1)
    #expect(name == "Ada")
    #expect(disk.names() == ["app-storage.json"])
  }

  @Test func aCorruptAppStorageFileIsKeptAside() throws {
    let disk = Disk()
    defer { disk.remove() }
    try FileManager.default.createDirectory(at: disk.folder, withIntermediateDirectories: true)
    try Data("[1, 2".utf8).write(to: disk.url("app-storage.json"))
    let log = IssueLog()
    let launches = withIssueReporters([log]) {
      disk.freshProcess {
        Shared(wrappedValue: 7, .appStorage("launches", url: disk.url("app-storage.json"))).value
      }
    }
    #expect(launches == 7)
    #expect(log.entries.value.map(\.severity) == [.warning])
    #expect(disk.names().contains { $0.hasPrefix("app-storage.json.corrupt-") })
  }

  @Test func theDefaultAppStorageFileIsInTheUsersDataFolder() {
    let path = AppStorageKey<Int>.defaultURL.path
    #expect(path.hasSuffix("/lunar/app-storage.json"))
    if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
      #expect(path.hasPrefix(xdg))
    } else {
      #expect(path.contains("/.local/share/"))
    }
  }

  @Test func inMemoryFileStorageIsTheTestDefault() {
    let storage = FileStorage.inMemory(["/x/settings.json": Data(#"{"theme":"dark","fontSize":9}"#.utf8)])
    let loaded = withDependencies {
      $0.defaultFileStorage = storage
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      Shared(wrappedValue: Settings(), .fileStorage(URL(fileURLWithPath: "/x/settings.json"))).value
    }
    #expect(loaded == Settings(theme: "dark", fontSize: 9))
  }
}
