import ArgumentParser
import Foundation
import LuaFeatures
import LunarHostSupport

/// What one pass over the test files found.
struct TestPass {
  var passed = 0
  var failed = 0
  /// Whether the pass could not do what was asked: no test file, no test matching `--filter`, or
  /// a report that could not be written (said already, on standard error).
  var problem = false
  /// For each test file run, the files its tests read (empty when it did not load).
  var reads: [URL: [URL]] = [:]

  /// Whether `lunar test` exits 0.
  var succeeded: Bool { !problem && failed == 0 }
}

extension Test {
  /// The folders and files searched for tests.
  var roots: [String] { paths.isEmpty ? TestFiles.defaultRoots() : paths }

  /// Runs every test file under ``roots`` once: a line per test, the recap of failures, the
  /// counts, then the reports.
  @MainActor
  func runTests(reports: [TestReportFile.Request]) async -> TestPass {
    var pass = TestPass()
    let files: [URL]
    do {
      files = try TestFiles.find(in: roots)
    } catch {
      printError("\(error)")
      pass.problem = true
      return pass
    }
    guard !files.isEmpty else {
      printError("no *_test.lua files under \(roots.joined(separator: ", "))")
      pass.problem = true
      return pass
    }
    let terminal = Terminal.standardOutput
    var entries: [TestReportFile.Entry] = []
    for file in files {
      let runner = LuaTestRunner(
        dependencies: HostDependencies.dependencies(mode: dependencies.deps, root: file.deletingLastPathComponent()),
        limits: limits.limits
      )
      let (results, read) = await runner.runReadingFiles(file: file, filter: filter)
      pass.reads[file] = read
      if !format.json, !results.isEmpty { print(terminal.bold(TestFiles.display(file))) }
      for result in results {
        entries.append((TestFiles.display(file), result))
        if result.passed { pass.passed += 1 } else { pass.failed += 1 }
        print(format.json ? TestReport.json(result) : TestReport.line(result, terminal: terminal))
      }
    }
    if let filter, pass.passed + pass.failed == 0 {
      printError("no test matches --filter \"\(filter)\" in \(files.count) file(s)")
      pass.problem = true
      return pass
    }
    for report in reports {
      do {
        try report.format.text(entries).write(toFile: report.file, atomically: true, encoding: .utf8)
      } catch {
        printError("cannot write the \(report.format.rawValue) report to \(report.file): \(error.localizedDescription)")
        pass.problem = true
      }
    }
    // NB: in a long run the failures scrolled away: their names again, with where they failed.
    if !format.json, pass.failed > 0 {
      print(terminal.red("Failed:"))
      for (file, result) in entries where !result.passed {
        let place = result.failures.first?.location ?? result.declaredAt
        print("  \(terminal.red("✘")) \(file): \(result.name)  " + terminal.dim(place))
      }
    }
    if format.json {
      print(HostEvent.summary(passed: pass.passed, failed: pass.failed).encoded().line)
    } else {
      let summary = "\(pass.passed) passed, \(pass.failed) failed"
      print(pass.failed == 0 ? terminal.green(summary) : terminal.red(summary))
    }
    return pass
  }
}
