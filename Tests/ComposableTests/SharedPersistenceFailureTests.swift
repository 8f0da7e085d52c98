import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting
import Testing

private struct Gauge: Equatable, Codable, Sendable {
  var ratio = 1.0
}

/// A file system in memory that also fails on request: a path that cannot be read, saves that
/// fail, renames that fail. It records every save, to check that nothing was written.
private final class FaultyStorage: Sendable {
  let files: LockIsolated<[String: Data]>
  let unreadable: LockIsolated<[String: String]>
  let saveFailure = LockIsolated<String?>(nil)
  let renameFailure = LockIsolated<String?>(nil)
  let saves = LockIsolated<[String]>([])

  init(files: [String: Data] = [:], unreadable: [String: String] = [:]) {
    self.files = LockIsolated(files)
    self.unreadable = LockIsolated(unreadable)
  }

  var storage: FileStorage {
    FileStorage(
      load: { [self] url in
        if let reason = unreadable[url.path] { throw Failure(reason) }
        return files[url.path]
      },
      save: { [self] data, url in
        saves.withValue { $0.append(url.path) }
        if let reason = saveFailure.value { throw Failure(reason) }
        files.withValue { $0[url.path] = data }
      },
      moveAside: { [self] url, name in
        if let reason = renameFailure.value { throw Failure(reason) }
        let target = url.deletingLastPathComponent().appendingPathComponent(name)
        files.withValue {
          $0[target.path] = $0[url.path]
          $0[url.path] = nil
        }
        return target
      }
    )
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// Runs `operation` with `storage` and a fresh registry, collecting the issues it reports.
private func withStorage<R>(_ storage: FileStorage, _ operation: () throws -> R) rethrows -> (R, [(message: String, severity: IssueSeverity)]) {
  let log = IssueLog()
  let result = try withIssueReporters([log]) {
    try withDependencies {
      $0.defaultFileStorage = storage
      $0.sharedRegistry = SharedRegistry()
    } operation: {
      try operation()
    }
  }
  return (result, log.entries.value)
}

/// What a persisted shared value does when its file cannot be read, used, or written: nothing
/// stored is ever lost silently.
struct SharedPersistenceFailureTests {
  let url = URL(fileURLWithPath: "/data/gauge.json")

  @Test func aFileThatCannotBeReadIsReportedAndNeverSaved() throws {
    let faulty = FaultyStorage(files: [url.path: Data("kept".utf8)], unreadable: [url.path: "Permission denied"])
    let (gauge, issues) = withStorage(faulty.storage) {
      let gauge = Shared(wrappedValue: Gauge(), .fileStorage(url))
      gauge.withLock { $0.ratio = 2 }
      return gauge
    }
    #expect(gauge.value == Gauge(ratio: 2))
    #expect(faulty.saves.value.isEmpty)
    #expect(faulty.files.value[url.path] == Data("kept".utf8))
    #expect(issues.map(\.severity) == [.error, .error])
    #expect(issues.first?.message == "/data/gauge.json cannot be read (Permission denied); it is left as it is, and changes to this value are not saved until it can be read")
    #expect(issues.last?.message == "not saved: /data/gauge.json could not be read when the value was loaded (Permission denied), and saving would overwrite it. The change is kept in memory only.")
    #expect((gauge.loadError as? SharedPersistenceError)?.kind == .unreadable)
    #expect((gauge.saveError as? SharedPersistenceError)?.kind == .notLoaded)
  }

  @Test func withLockIfSavedRefusesEveryChangeAfterAFailedLoad() throws {
    let faulty = FaultyStorage(unreadable: [url.path: "Input/output error"])
    let (gauge, _) = withStorage(faulty.storage) { Shared(wrappedValue: Gauge(), .fileStorage(url)) }
    let error = #expect(throws: SharedPersistenceError.self) {
      try withIssueReporters([]) { try gauge.withLockIfSaved { $0.ratio = 3 } }
    }
    #expect(error?.kind == .notLoaded)
    #expect(gauge.value == Gauge())
    #expect(faulty.saves.value.isEmpty)
  }

  @Test func aFolderInPlaceOfTheFileIsLeftAlone() throws {
    let disk = Disk()
    defer { disk.remove() }
    let file = disk.url("gauge.json")
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: file.appendingPathComponent("inside"))
    let (gauge, issues) = withStorage(.fileSystem) {
      let gauge = Shared(wrappedValue: Gauge(), .fileStorage(file))
      gauge.withLock { $0.ratio = 2 }
      return gauge
    }
    #expect(issues.first?.message == "\(file.path) cannot be read (it is a folder, not a file); it is left as it is, and changes to this value are not saved until it can be read")
    #expect(gauge.loadError != nil)
    #expect(try Data(contentsOf: file.appendingPathComponent("inside")) == Data("mine".utf8))
  }

  @Test func aValueThatCannotBeEncodedIsReportedAndTheNextGoodValueIsSaved() throws {
    let faulty = FaultyStorage()
    let (gauge, issues) = withStorage(faulty.storage) {
      let gauge = Shared(wrappedValue: Gauge(), .fileStorage(url))
      gauge.withLock { $0.ratio = .nan }
      return gauge
    }
    #expect(issues.map(\.severity) == [.error])
    #expect(issues.first?.message.hasPrefix("not saved to /data/gauge.json: the value cannot be encoded (") == true)
    #expect((gauge.saveError as? SharedPersistenceError)?.kind == .unencodable)
    #expect(faulty.files.value[url.path] == nil)
    gauge.withLock { $0.ratio = 0.5 }
    #expect(gauge.saveError == nil)
    #expect(try JSONDecoder().decode(Gauge.self, from: try #require(faulty.files.value[url.path])) == Gauge(ratio: 0.5))
  }

  @Test func withLockIfSavedRefusesAValueThatCannotBeEncoded() throws {
    let faulty = FaultyStorage()
    let (gauge, _) = withStorage(faulty.storage) { Shared(wrappedValue: Gauge(), .fileStorage(url)) }
    gauge.withLock { $0.ratio = 2 }
    let saved = faulty.files.value[url.path]
    let error = #expect(throws: SharedPersistenceError.self) { try gauge.withLockIfSaved { $0.ratio = .infinity } }
    #expect(error?.kind == .unencodable)
    #expect(gauge.value == Gauge(ratio: 2))
    #expect(faulty.files.value[url.path] == saved)
  }

  @Test func aFailedWriteIsReportedAndTheChangeKeptInMemory() throws {
    let faulty = FaultyStorage()
    faulty.saveFailure.setValue("No space left on device")
    let (gauge, issues) = withStorage(faulty.storage) {
      let gauge = Shared(wrappedValue: Gauge(), .fileStorage(url))
      gauge.withLock { $0.ratio = 4 }
      return gauge
    }
    #expect(gauge.value == Gauge(ratio: 4))
    #expect(issues.map(\.message) == ["could not save /data/gauge.json: No space left on device. The change is kept in memory only."])
  }

  @Test func withLockIfSavedRefusesAChangeWhenTheWriteFails() throws {
    let faulty = FaultyStorage()
    faulty.saveFailure.setValue("No space left on device")
    let (gauge, _) = withStorage(faulty.storage) { Shared(wrappedValue: Gauge(), .fileStorage(url)) }
    let observed = LockIsolated<[Gauge]>([])
    let token = gauge.observeSynchronously { value in observed.withValue { $0.append(value) } }
    defer { token() }
    let error = #expect(throws: SharedPersistenceError.self) { try gauge.withLockIfSaved { $0.ratio = 4 } }
    #expect(error?.description == "could not save /data/gauge.json: No space left on device")
    #expect(gauge.value == Gauge())
    #expect(observed.value.isEmpty)
  }

  @Test func aCorruptFileThatCannotBeRenamedAsideIsLeftAlone() throws {
    let faulty = FaultyStorage(files: [url.path: Data("{ torn".utf8)])
    faulty.renameFailure.setValue("Read-only file system")
    let (gauge, issues) = withStorage(faulty.storage) {
      let gauge = Shared(wrappedValue: Gauge(), .fileStorage(url))
      gauge.withLock { $0.ratio = 2 }
      return gauge
    }
    #expect(faulty.saves.value.isEmpty)
    #expect(faulty.files.value[url.path] == Data("{ torn".utf8))
    #expect(issues.first?.message.contains("and renaming it aside failed (Read-only file system)") == true)
    #expect(gauge.loadError != nil)
  }

  @Test func anAppStorageFileThatCannotBeReadIsNotRewritten() throws {
    let store = URL(fileURLWithPath: "/data/app-storage.json")
    let faulty = FaultyStorage(files: [store.path: Data(#"{"name":"Ada"}"#.utf8)], unreadable: [store.path: "Permission denied"])
    let (launches, _) = withStorage(faulty.storage) {
      let launches = Shared(wrappedValue: 0, .appStorage("launches", url: store))
      launches.withLock { $0 += 1 }
      return launches
    }
    #expect(launches.loadError != nil)
    #expect(faulty.saves.value.isEmpty)
  }

  @Test func aFolderClaimedByAnotherProcessIsRefused() throws {
    let disk = Disk()
    defer { disk.remove() }
    try FileManager.default.createDirectory(at: disk.folder, withIntermediateDirectories: true)
    // NB: another open file description holding the lock is, to flock(2), another process.
    let lockPath = disk.url(".lock").path
    let other = open(lockPath, O_RDWR | O_CREAT, 0o666)
    defer { close(other) }
    _ = "4242\n".withCString { write(other, $0, 5) }
    #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
    let error = #expect(throws: FolderInUseError.self) { try FileStorage.fileSystem.claim(disk.folder) }
    #expect(error?.processID == 4242)
    #expect(error?.description == "\(disk.folder.path) is in use by another process (pid 4242); two processes saving the same files would overwrite each other's changes")
  }

  @Test func aClaimRecordsTheProcessAndIsFreeToRepeat() throws {
    let disk = Disk()
    defer { disk.remove() }
    try FileStorage.fileSystem.claim(disk.folder)
    try FileStorage.fileSystem.claim(disk.folder)
    #expect(try String(contentsOf: disk.url(".lock"), encoding: .utf8) == "\(getpid())\n")
  }
}
