import ConcurrencyExtras
import Foundation

/// Claims on folders, held by this process until it ends: an advisory lock (`flock`) on a `.lock`
/// file in the folder, which also records the holder's process id. The system releases the lock
/// when the process ends, however it ends (a `kill -9` included), so a claim is never left stale.
enum FolderClaim {
  static let lockName = ".lock"
  /// The folders claimed, by path, with the open lock file (kept open: closing it would release it).
  private static let held = LockIsolated<[String: Int32]>([:])

  /// Claims `folder` (creating it) for this process; claiming it again is free.
  ///
  /// - Throws: ``FolderInUseError`` when another process holds it; ``FileSystemError`` when the
  ///   lock file cannot be made.
  static func claim(_ folder: URL) throws {
    let path = folder.standardizedFileURL.path
    try held.withValue { held in
      if held[path] != nil { return }
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      } catch {
        throw FileSystemError("cannot create the folder \(path)")
      }
      let lockPath = path + "/" + lockName
      let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
      guard descriptor >= 0 else { throw FileSystemError(code: errno) }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        let code = errno
        let holder = Self.holder(of: descriptor)
        close(descriptor)
        if code == EWOULDBLOCK { throw FolderInUseError(folder: URL(fileURLWithPath: path), processID: holder) }
        throw FileSystemError(code: code)
      }
      // NB: the process id is only a hint for the message of the next claimant; the lock is the truth.
      let text = Array("\(getpid())\n".utf8)
      _ = ftruncate(descriptor, 0)
      _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
      held[path] = descriptor
    }
  }

  /// The process id written in an open lock file, if it holds one.
  private static func holder(of descriptor: Int32) -> Int32? {
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return nil }
    return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// Another process holds the claim on a folder (see ``FileStorage/claim``).
public struct FolderInUseError: Error, Sendable, CustomStringConvertible {
  /// The folder.
  public let folder: URL
  /// The process holding it, when it recorded its id.
  public let processID: Int32?

  /// An error for `folder`, held by `processID`.
  public init(folder: URL, processID: Int32?) {
    self.folder = folder
    self.processID = processID
  }

  public var description: String {
    let holder = processID.map { "another process (pid \($0))" } ?? "another process"
    return """
      \(folder.path) is in use by \(holder); two processes saving the same files would overwrite each \
      other's changes
      """
  }
}
