import Foundation
import IssueReporting
import LuaBridge

/// Runs the tests of a `*_test.lua` file and returns their results: what `lunar test` uses.
///
/// ```swift
/// let runner = LuaTestRunner(dependencies: .builtIn)
/// let results = await runner.run(file: URL(fileURLWithPath: "examples/counter/counter_test.lua"))
/// for result in results where !result.passed {
///   print(result.name, result.failures)
/// }
/// ```
///
/// A test file declares tests with `lunar.test`:
///
/// ```lua
/// local test = require "lunar.test"
/// local Counter = require "counter"
///
/// test("incrementing", function()
///   local store = test.store(Counter)
///   store:send({ type = "increment" }, function(state) state.count = 1 end)
/// end)
/// ```
///
/// Each test gets fresh stores, a test clock (`store:advance(seconds)`), `deps.uuid()` counting
/// from `00000000-0000-0000-0000-000000000000`, and `deps.now()` at 0. Asynchronous dependencies
/// other than the clock must be mocked (`test.store(feature, { deps = { … } })`): an unmocked one
/// fails the test.
@MainActor
public struct LuaTestRunner {
  /// The dependencies the features under test are loaded with.
  public var dependencies: LuaDependencies
  /// The VM limits of each test file.
  public var limits: LuaVM.Limits
  /// Where the tests' `print` goes, with what `store:skipReceived { print = true }` and a store
  /// showing what it skipped print: standard output by default.
  public var output: (String) -> Void = { print($0) }

  /// A runner.
  public init(dependencies: LuaDependencies = .builtIn, limits: LuaVM.Limits = .default) {
    self.dependencies = dependencies
    self.limits = limits
  }

  /// Runs the tests of `file` whose name contains `filter` (all when `nil`).
  public func run(file: URL, filter: String? = nil) async -> [LuaTestResult] {
    await runReadingFiles(file: file, filter: filter).results
  }

  /// Runs the tests of `file` as ``run(file:filter:)`` does, and also returns the files they read:
  /// the test file and the features and modules it required (absolute, in load order; empty when
  /// the file did not load). `lunar test --watch` runs the tests again when one of them changes.
  public func runReadingFiles(file: URL, filter: String? = nil) async -> (results: [LuaTestResult], files: [URL]) {
    let name = file.lastPathComponent
    let collector = IssueCollector()
    let session: LuaTestSession
    do {
      session = try LuaTestSession(
        file: file, dependencies: dependencies, limits: limits, collector: collector, output: output)
    } catch {
      let failure = LuaTestResult(
        name: "(loading \(name))", file: file.path, declaredAt: name,
        failures: [Self.loadFailure(error)], duration: .zero
      )
      return ([failure], [])
    }
    var results: [LuaTestResult] = []
    // NB: each test but the first loads the file in a fresh sandbox, and may require more.
    var files = session.sandbox.loadedFiles
    for test in session.tests where filter.map({ test.name.contains($0) }) ?? true {
      let clock = ContinuousClock()
      let start = clock.now
      await withIssueReporters([collector]) {
        await session.run(test)
      }
      results.append(
        LuaTestResult(
          name: test.name, file: file.path, declaredAt: test.declaredAt,
          failures: collector.take(), duration: start.duration(to: clock.now)
        )
      )
      files += session.sandbox.loadedFiles.filter { !files.contains($0) }
    }
    return (results, files)
  }

  /// A file that does not load: the message without its `file:line:` prefix, which becomes the
  /// location.
  static func loadFailure(_ error: any Error) -> LuaTestFailure {
    guard let error = error as? LuaFeatureError, let location = error.location else {
      return LuaTestFailure(message: "\(error)", location: nil)
    }
    var message = error.message
    if message.hasPrefix(location + ":") { message = String(message.dropFirst(location.count + 1)).trimmingCharacters(in: .whitespaces) }
    return LuaTestFailure(message: message, location: location)
  }
}
