import Foundation
import Testing

/// The built `lunar` executable, run as a user runs it: arguments, piped input, a working folder.
///
/// The binary is looked up, in order, at `$LUNAR_BINARY`, next to the test bundle (the build's
/// `debug` folder, where `swift build --build-tests` puts both), and in the package's `.build`
/// folders. When none exists it is built with `swift build --product lunar`.
enum Lunar {
  /// What a run printed, and how it ended.
  struct Output: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool

    /// Standard output's lines, without the empty one after the last newline.
    var lines: [String] {
      stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// Standard output's lines as a terminal shows them: a carriage return starts its line over,
    /// and escape sequences (the prompt erasing itself before output) are left out.
    var terminalLines: [String] {
      stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { line in
        let plain = line.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
        return String(plain.split(separator: "\r").last ?? "")
      }
    }

    /// Standard output's lines read as JSON objects (lines that are not JSON objects are skipped),
    /// each state event's `state` rebuilt from the ones before it (see ``StateMirror``).
    var events: [Event] {
      var mirror = StateMirror()
      return lines.compactMap(Event.init(line:)).map { mirror.follow($0) }
    }

    var description: String {
      "exit \(status)\(timedOut ? " (timed out)" : "")\n--- stdout\n\(stdout.prefix(4000))\n--- stderr\n\(stderr.prefix(4000))"
    }
  }

  /// The package's root folder (where `Package.swift` and `examples/` are).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// This test target's folder, holding `Hostile/` and `Fixtures/`.
  static let testsFolder: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

  /// Runs `lunar` with `arguments` in `folder` (the package root by default), feeding `input` to its
  /// standard input, and waits for it to end (at most `timeout` seconds, then it is killed).
  /// `environment` adds to (or replaces) the test's own variables.
  static func run(
    _ arguments: [String], input: Data = Data(), in folder: URL? = nil, environment: [String: String] = [:],
    timeout: Double = 60, program: String = "lunar"
  ) async throws -> Output {
    // NB: another executable of the package (`lunar-embed`) is built next to `lunar`.
    let binary = program == "lunar" ? try await binary() : try await binary().deletingLastPathComponent().appendingPathComponent(program)
    return try await withCheckedThrowingContinuation { continuation in
      // NB: Waiting on a process blocks a thread: do it off Swift concurrency's cooperative pool.
      Thread.detachNewThread {
        continuation.resume(with: Result {
          try runBlocking(
            binary, arguments, input: input, in: folder ?? packageRoot, environment: environment, timeout: timeout
          )
        })
      }
    }
  }

  /// Runs `lunar` with a terminal as its standard input and output (through util-linux's
  /// `script`), as a person at a prompt would.
  ///
  /// With `standardOutput`, lunar's standard output goes to that file, and only its standard error
  /// to the terminal.
  static func runAtTerminal(
    _ arguments: [String], input: String, environment: [String: String] = [:], standardOutput: String? = nil,
    timeout: Double = 60
  ) async throws -> Output {
    let binary = try await binary()
    var environment = environment
    // NB: the prompt's history goes to a folder of the tests, not to the user's home.
    if environment["XDG_STATE_HOME"] == nil {
      environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-cli-tests-state").path
    }
    let variables = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let quote = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
    var command = ((variables.isEmpty ? [] : ["/usr/bin/env"] + variables) + [binary.path] + arguments).map(quote)
      .joined(separator: " ")
    if let standardOutput { command += " > " + quote(standardOutput) }
    let shellCommand = command
    return try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result {
          try runBlocking(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", shellCommand, "/dev/null"], input: Data(input.utf8),
            in: packageRoot, timeout: timeout
          )
        })
      }
    }
  }

  static var terminalAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

  /// ``run(_:input:in:environment:timeout:)`` with text input.
  static func run(
    _ arguments: [String], input: String, in folder: URL? = nil, environment: [String: String] = [:],
    timeout: Double = 60
  ) async throws -> Output {
    try await run(arguments, input: Data(input.utf8), in: folder, environment: environment, timeout: timeout)
  }

  static func runBlocking(
    _ binary: URL, _ arguments: [String], input: Data, in folder: URL, environment extra: [String: String] = [:],
    timeout: Double
  ) throws -> Output {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    // NB: set before `run()`: a process that ends at once would otherwise end before the handler
    //     is there, and the wait below would never be signalled.
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    try process.run()

    let group = DispatchGroup()
    let collected = Collected()
    group.enter()
    Thread.detachNewThread {
      collected.setStdout(stdout.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
    group.enter()
    Thread.detachNewThread {
      collected.setStderr(stderr.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
    Thread.detachNewThread {
      // NB: The process may stop reading (it stops at the first error): a closed pipe is fine.
      signal(SIGPIPE, SIG_IGN)
      try? stdin.fileHandleForWriting.write(contentsOf: input)
      try? stdin.fileHandleForWriting.close()
    }
    var timedOut = false
    if finished.wait(timeout: .now() + timeout) == .timedOut {
      timedOut = true
      process.terminate()
      // NB: bounded, and then Foundation's own wait: a run must never hang the test process.
      if finished.wait(timeout: .now() + 10) == .timedOut { process.waitUntilExit() }
    }
    group.wait()
    return Output(
      status: process.terminationStatus,
      stdout: String(decoding: collected.stdout, as: UTF8.self),
      stderr: String(decoding: collected.stderr, as: UTF8.self),
      timedOut: timedOut
    )
  }

  private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    var stdout: Data { lock.withLock { out } }
    var stderr: Data { lock.withLock { err } }
    func setStdout(_ data: Data) { lock.withLock { out = data } }
    func setStderr(_ data: Data) { lock.withLock { err = data } }
  }

  // MARK: - Finding the binary

  private static let located = BinaryLocator()

  static func binary() async throws -> URL {
    try await located.url()
  }
}

/// Finds the `lunar` binary once per test run, building it when it is missing.
private actor BinaryLocator {
  private var found: URL?

  func url() throws -> URL {
    if let found { return found }
    let url = try locate()
    found = url
    return url
  }

  private func locate() throws -> URL {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["LUNAR_BINARY"], !path.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: path) else {
        throw LunarBinaryError("LUNAR_BINARY is \(path), but no executable is there")
      }
      return URL(fileURLWithPath: path)
    }
    let candidates = buildFolders().map { $0.appendingPathComponent("lunar") }
    if let existing = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
      return existing
    }
    return try build(into: buildFolders().first)
  }

  /// The folders a build puts products in, the test bundle's own first.
  private func buildFolders() -> [URL] {
    var folders: [URL] = []
    for bundle in [Bundle.main] + Bundle.allBundles {
      var url = bundle.bundleURL
      // NB: On macOS the bundle is `…/debug/LunarPackageTests.xctest`; on Linux the test runner is
      //     an executable inside `…/debug/`.
      if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
      folders.append(url)
      if let executable = bundle.executableURL { folders.append(executable.deletingLastPathComponent()) }
    }
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for scratch in [".build-cli", ".build"] {
      folders.append(Lunar.packageRoot.appendingPathComponent(scratch).appendingPathComponent("debug"))
    }
    var seen = Set<String>()
    return folders.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
  }

  /// Builds the `lunar` product into the scratch folder holding `folder` (a `…/debug` folder).
  private func build(into folder: URL?) throws -> URL {
    var arguments = ["build", "--product", "lunar", "--package-path", Lunar.packageRoot.path]
    if let folder, folder.lastPathComponent == "debug" {
      // `<scratch>/<triple>/debug` or `<scratch>/debug`
      var scratch = folder.deletingLastPathComponent()
      if scratch.lastPathComponent.contains("-") { scratch.deleteLastPathComponent() }
      arguments += ["--scratch-path", scratch.path]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
    let log = Pipe()
    process.standardOutput = log
    process.standardError = log
    try process.run()
    let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let built = folder?.appendingPathComponent("lunar")
    guard process.terminationStatus == 0, let built, FileManager.default.isExecutableFile(atPath: built.path) else {
      throw LunarBinaryError("""
        the lunar binary is missing and `swift \(arguments.joined(separator: " "))` did not produce it. \
        Build it first (swift build --build-tests builds it), or set LUNAR_BINARY to its path.
        \(output.suffix(3000))
        """)
    }
    return built
  }
}

struct LunarBinaryError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// One JSON object printed by `lunar` (`{"event":"state",…}`).
struct Event: @unchecked Sendable, CustomStringConvertible {
  var object: [String: Any]
  let line: String

  init?(line: String) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
    self.object = object
    self.line = line
  }

  subscript(key: String) -> Any? { object[key] }
  var name: String? { object["event"] as? String }
  func string(_ key: String) -> String? { object[key] as? String }
  func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
  var state: [String: Any]? { object["state"] as? [String: Any] }
  /// The `action` field's `type` (action events) or the `action` string (effect events).
  var actionType: String? {
    (object["action"] as? [String: Any])?["type"] as? String ?? object["action"] as? String
  }
  var description: String { line }
}

extension Array where Element == Event {
  func named(_ name: String) -> [Event] { filter { $0.name == name } }
}

/// A fresh temporary folder, removed by the caller with ``removeTemporaryFolder(_:)``.
func makeTemporaryFolder() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("lunar-cli-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

func removeTemporaryFolder(_ url: URL) {
  try? FileManager.default.removeItem(at: url)
}
