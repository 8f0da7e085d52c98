import Foundation

/// dog.ceo's API on 127.0.0.1, for tests of `--deps live`: `python3 -m http.server` serving a
/// temporary folder laid out like the API, filled from the example's bundled data.
///
/// - `/api/breeds/list/all`: `data/breeds.json` as it is;
/// - `/api/breed/<breed>/images/random`: `{"message": <the last of data/images/<breed>.json>, "status": "success"}`
///   (the last, so that a test can tell the server's answer from the offline client's first).
///
/// Foundation on Linux has no HTTP server, and python3 is on every machine that builds Lunar.
final class LocalDogAPI: @unchecked Sendable {
  static let python = "/usr/bin/python3"
  static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

  /// `http://127.0.0.1:<port>`, for `LUNAR_DOGS_API`.
  let url: String
  private let process: Process
  private let folder: URL
  private let lock = NSLock()
  private var log = ""

  init(data: URL) throws {
    folder = try makeTemporaryFolder()
    try Self.layOut(data: data, in: folder)

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
      let chunk = stdout.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      banner += String(decoding: chunk, as: UTF8.self)
    }
    guard let port = banner.split(separator: " ").drop(while: { $0 != "port" }).dropFirst().first.flatMap({ Int($0) })
    else {
      process.terminate()
      throw LunarBinaryError("python3 -m http.server did not start: \(banner)")
    }
    url = "http://127.0.0.1:\(port)"
    // http.server logs each request on standard error: `… "GET /api/breeds/list/all HTTP/1.1" 200 -`.
    Thread.detachNewThread { [self] in
      while true {
        let chunk = stderr.fileHandleForReading.availableData
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

  /// Stops the server and removes its folder.
  func stop() {
    // NB: SIGKILL: the server is ours, and a test process may run it with SIGTERM ignored.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    removeTemporaryFolder(folder)
  }

  private static func layOut(data: URL, in folder: URL) throws {
    let files = FileManager.default
    let list = folder.appendingPathComponent("api/breeds/list")
    try files.createDirectory(at: list, withIntermediateDirectories: true)
    try files.copyItem(at: data.appendingPathComponent("breeds.json"), to: list.appendingPathComponent("all"))
    let images = data.appendingPathComponent("images")
    for file in try files.contentsOfDirectory(atPath: images.path) where file.hasSuffix(".json") {
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: images.appendingPathComponent(file)))
      guard let urls = (object as? [String: Any])?["message"] as? [String], let last = urls.last else { continue }
      let breed = folder.appendingPathComponent("api/breed/\(file.dropLast(5))/images")
      try files.createDirectory(at: breed, withIntermediateDirectories: true)
      let answer = try JSONSerialization.data(withJSONObject: ["message": last, "status": "success"])
      try answer.write(to: breed.appendingPathComponent("random"))
    }
  }
}
