import Foundation
import TestSupport

/// An HTTP server on 127.0.0.1 for tests of `--deps live` and `--deps record`: `python3 -m
/// http.server` serving a temporary folder holding `files` (path → body), never the internet.
///
/// Foundation on Linux has no HTTP server, and python3 is on every machine that builds Lunar.
final class LocalFileServer: @unchecked Sendable {
  static let python = "/usr/bin/python3"
  static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

  /// `http://127.0.0.1:<port>`.
  let url: String
  private let process: Process
  private let folder: URL
  private let lock = NSLock()
  private var log = ""

  init(files: [String: String]) throws {
    folder = try makeTemporaryFolder()
    for (path, body) in files {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(body.utf8).write(to: file)
    }

    process = Process()
    process.executableURL = URL(fileURLWithPath: Self.python)
    process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()

    // "Serving HTTP on 127.0.0.1 port 39515 (http://127.0.0.1:39515/) ..."
    var banner = ""
    while !banner.contains("\n") {
      let chunk = stdout.fileHandleForReading.nextChunk()
      if chunk.isEmpty { break }
      banner += String(decoding: chunk, as: UTF8.self)
    }
    guard let port = banner.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first.flatMap({ Int($0) })
    else {
      process.terminate()
      removeTemporaryFolder(folder)
      throw LunarBinaryError("python3 -m http.server did not start: \(banner)")
    }
    url = "http://127.0.0.1:\(port)"
    // http.server logs each request on standard error: `… "GET /quotes/1 HTTP/1.1" 200 -`.
    Thread.detachNewThread { [self] in
      while true {
        let chunk = stderr.fileHandleForReading.nextChunk()
        if chunk.isEmpty { break }
        lock.withLock { log += String(decoding: chunk, as: UTF8.self) }
      }
    }
  }

  /// The paths requested so far.
  func requests() -> [String] {
    lock.withLock { log }.split(separator: "\n").compactMap { line in
      guard let get = line.range(of: "\"GET ") else { return nil }
      return line[get.upperBound...].split(separator: " ").first.map(String.init)
    }
  }

  /// Whether `path` was requested, waiting a little for the server's log to arrive.
  func requested(_ path: String) -> Bool {
    for _ in 0..<40 {
      if requests().contains(path) { return true }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return false
  }

  /// Stops the server and removes its folder.
  func stop() {
    // NB: SIGKILL: the server is ours, and a test process may run it with SIGTERM ignored.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    removeTemporaryFolder(folder)
  }
}
