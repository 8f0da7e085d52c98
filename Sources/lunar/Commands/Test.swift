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
      contains a text; --junit FILE and --tap FILE also write a report for CI.

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

  @OptionGroup var format: JSONOption

  @Option(help: ArgumentHelp("Also write a JUnit XML report (a testcase per test) to this file.", valueName: "file"))
  var junit: String?

  @Option(help: ArgumentHelp("Also write a TAP (version 13) report to this file.", valueName: "file"))
  var tap: String?

  @OptionGroup var dependencies: DependencyOption

  @OptionGroup(title: "Limits")
  var limits: HostLimitOptions

  @OptionGroup(title: "Output")
  var colors: ColorOptions

  @MainActor
  func run() async throws {
    let files = try TestFiles.find(in: paths.isEmpty ? TestFiles.defaultRoots() : paths)
    guard !files.isEmpty else {
      printError("no *_test.lua files under \((paths.isEmpty ? TestFiles.defaultRoots() : paths).joined(separator: ", "))")
      throw ExitCode(1)
    }
    let terminal = Terminal.standardOutput
    var passed = 0
    var failed = 0
    var entries: [TestReportFile.Entry] = []
    for file in files {
      let runner = LuaTestRunner(
        dependencies: HostDependencies.dependencies(mode: dependencies.deps, root: file.deletingLastPathComponent()),
        limits: limits.limits
      )
      let results = await runner.run(file: file, filter: filter)
      if !format.json, !results.isEmpty { print(terminal.bold(TestFiles.display(file))) }
      for result in results {
        entries.append((TestFiles.display(file), result))
        if result.passed { passed += 1 } else { failed += 1 }
        if format.json {
          print(TestReport.json(result))
        } else {
          print(TestReport.line(result, terminal: terminal))
        }
      }
    }
    if let filter, passed + failed == 0 {
      printError("no test matches --filter \"\(filter)\" in \(files.count) file(s)")
      throw ExitCode(1)
    }
    do {
      if let junit { try TestReportFile.junit(entries).write(toFile: junit, atomically: true, encoding: .utf8) }
      if let tap { try TestReportFile.tap(entries).write(toFile: tap, atomically: true, encoding: .utf8) }
    } catch {
      printError("cannot write the report: \(error.localizedDescription)")
      throw ExitCode(1)
    }
    let summary = "\(passed) passed, \(failed) failed"
    // NB: in a long run the failures scrolled away: their names again, with where they failed.
    if !format.json, failed > 0 {
      print(terminal.red("Failed:"))
      for (file, result) in entries where !result.passed {
        let place = result.failures.first?.location ?? result.declaredAt
        print("  \(terminal.red("✘")) \(file): \(result.name)  " + terminal.dim(place))
      }
    }
    if format.json {
      print(HostEvent.summary(passed: passed, failed: failed).encoded().line)
    } else {
      print(failed == 0 ? terminal.green(summary) : terminal.red(summary))
    }
    if failed > 0 { throw ExitCode(1) }
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
