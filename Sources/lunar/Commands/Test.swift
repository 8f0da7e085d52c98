import ArgumentParser
import Foundation
import LuaFeatures
import LunarHostSupport

/// `lunar test`: runs `*_test.lua` files.
struct Test: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the Lua tests (*_test.lua) of features.",
    usage: "lunar test [<options>] [<paths> ...]",
    discussion: """
      Finds every *_test.lua under the given paths (default: examples/ when the current folder has \
      one, else the current folder) and \
      runs the tests they declare with lunar.test. Prints a line per test with its time, failures \
      with their file:line and state diffs (− expected, + actual), then the failed tests again \
      and "N passed, N failed". Exits 1 when a test fails. --filter runs the tests whose name \
      contains a text; --report junit FILE or --report tap FILE also writes a report for CI.

      With --watch, the tests run again whenever a Lua file they read changes (a test file, a \
      feature, a module it requires), under a line with the time and the changed files; Enter \
      runs them again at once, ctrl-C or ctrl-D quits. For example:
        lunar test examples/counter --watch --filter timer

      A test file sits next to its feature, which it requires by file name (feature.lua is \
      "feature"), and looks like:

        local test = require "lunar.test"
        local Counter = require "feature"

        test("incrementing", function()
          local store = test.store(Counter)
          store:send({ type = "increment" }, function(state) state.count = 1 end)
        end)
      """
  )

  @Argument(help: "Test files, or folders searched for *_test.lua.")
  var paths: [String] = []

  @Option(help: ArgumentHelp("Run only the tests whose name contains this text.", valueName: "text"))
  var filter: String?

  @Flag(help: "Keep running, and run the tests again whenever a Lua file they read changes.")
  var watch = false

  @OptionGroup var format: JSONOption

  @Option(
    parsing: .upToNextOption,
    help: ArgumentHelp(
      "Also write a report for CI: junit FILE (JUnit XML, a testcase per test) or tap FILE (TAP version 13). Repeat it to write both.",
      valueName: "format> <file"))
  var report: [String] = []

  @OptionGroup var dependencies: DependencyOption

  @OptionGroup(title: "Limits")
  var limits: HostLimitOptions

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  func validate() throws {
    _ = try TestReportFile.requests(report)
  }

  @MainActor
  func run() async throws {
    let reports = try TestReportFile.requests(report)
    if watch {
      try await watchTests(reports: reports)
      return
    }
    let pass = await runTests(reports: reports)
    if !pass.succeeded { throw ExitCode(1) }
  }
}

/// Finding test files.
enum TestFiles {
  static func defaultRoots() -> [String] {
    FileManager.default.fileExists(atPath: "examples") ? ["examples"] : ["."]
  }

  static func find(in paths: [String]) throws -> [URL] {
    var files: [URL] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw ValidationError("no such file or folder: \(path)")
      }
      let url = URL(fileURLWithPath: path).standardizedFileURL
      if !isDirectory.boolValue {
        files.append(url)
        continue
      }
      let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
      while let next = enumerator?.nextObject() as? URL {
        if next.lastPathComponent.hasSuffix("_test.lua") { files.append(next.standardizedFileURL) }
      }
    }
    return Array(Set(files)).sorted { $0.path < $1.path }
  }

  static func display(_ file: URL) -> String {
    let cwd = FileManager.default.currentDirectoryPath + "/"
    return file.path.hasPrefix(cwd) ? String(file.path.dropFirst(cwd.count)) : file.path
  }
}

/// How test results print.
enum TestReport {
  static func line(_ result: LuaTestResult, terminal: Terminal) -> String {
    let time = terminal.dim(String(format: "(%.1f ms)", Double(result.duration.components.attoseconds) / 1e15 + Double(result.duration.components.seconds) * 1000))
    guard !result.passed else { return "  \(terminal.green("✔")) \(result.name) \(time)" }
    var lines = ["  \(terminal.red("✘")) \(result.name) \(time)"]
    for failure in result.failures {
      // The headline goes on the location's line; the diff and the advice under it.
      var message = failure.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var headline = message.isEmpty ? "" : message.removeFirst()
      // NB: Lua's own messages (`error("kaboom")`) already start with the location.
      if let location = failure.location, headline.hasPrefix(location + ": ") {
        headline.removeFirst(location.count + 2)
      }
      // NB: an error's own text names the location again (`error: Stopwatch: feature.lua:43: …`).
      if let location = failure.location, let inner = headline.range(of: ": " + location + ": ") {
        headline.replaceSubrange(inner, with: ": ")
      }
      let location = failure.location.map { terminal.bold($0) + ": " } ?? ""
      lines.append("    \(location)\(headline)")
      if !message.isEmpty {
        lines.append(terminal.diff(message.map { $0.isEmpty ? "" : "      " + $0 }.joined(separator: "\n")))
      }
    }
    return lines.joined(separator: "\n")
  }

  static func json(_ result: LuaTestResult) -> String {
    HostEvent.test(
      name: result.name, file: result.file, declaredAt: result.declaredAt,
      milliseconds: Double(result.duration.components.seconds) * 1000 + Double(result.duration.components.attoseconds) / 1e15,
      failures: result.failures.map { ($0.message, $0.location) }
    ).encoded().line
  }
}
