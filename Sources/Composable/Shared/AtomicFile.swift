import Foundation

/// Reading and atomically replacing files with POSIX calls, so that every failure says exactly
/// what went wrong (`Permission denied`, `No space left on device`, a folder where the file
/// should be) and "missing" is never confused with "cannot be read".
///
/// A write goes to a temporary file next to the target, is flushed, and is renamed over the target.
/// `rename(2)` within one folder is atomic, so a crash at any point leaves the old file or the new
/// one — at worst plus a temporary file, which the next load removes.
enum AtomicFile {
  /// The prefix of temporary files for `url`: `.<name>.tmp-`.
  static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent).tmp-" }

  /// The file's bytes; `nil` only when nothing is at `url`.
  ///
  /// - Throws: ``FileSystemError`` when something is there but cannot be read: no permission, a
  ///   folder or another kind of file in its place, an I/O error.
  static func read(_ url: URL) throws -> Data? {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      throw FileSystemError(code: code)
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw FileSystemError(code: errno) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw FileSystemError("it is a folder, not a file")
    default: throw FileSystemError("it is not a regular file")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileSystemError(code: errno)
      }
      data.append(contentsOf: buffer[..<count])
    }
  }

  /// Replaces the file at `url` with `data`, creating its folder if needed.
  static func write(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw FileSystemError("cannot create the folder \(folder.path)")
    }
    let temporary = folder.appendingPathComponent(temporaryPrefix(of: url) + UUID().uuidString)
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw FileSystemError(code: errno) }
    do {
      try writeAll(data, to: descriptor)
      // NB: Flush before renaming, or a power loss may leave the new name pointing at empty blocks.
      guard fsync(descriptor) == 0 else { throw FileSystemError(code: errno) }
      guard close(descriptor) == 0 else { throw FileSystemError(code: errno) }
    } catch {
      close(descriptor)
      unlink(temporary.path)
      throw error
    }
    guard rename(temporary.path, url.path) == 0 else {
      let code = errno
      unlink(temporary.path)
      throw FileSystemError(code: code)
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32) throws {
    try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var offset = 0
      while offset < bytes.count {
        let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw FileSystemError(code: errno)
        }
        offset += written
      }
    }
  }

  /// Removes temporary files an interrupted ``write(_:to:)`` left next to `url`.
  static func removeLeftovers(of url: URL) {
    let folder = url.deletingLastPathComponent()
    let prefix = temporaryPrefix(of: url)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(prefix) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }
}

/// A file system call that failed, in the system's words (`Permission denied`).
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
  /// The `errno` value, when the failure came from a system call.
  public let code: Int32?
  public let description: String

  init(code: Int32) {
    self.code = code
    self.description = String(cString: strerror(code))
  }

  init(_ description: String) {
    self.code = nil
    self.description = description
  }
}
