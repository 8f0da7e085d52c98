import Foundation
import Testing

/// `lunar test`: runs `*_test.lua` files and reports like a test runner.
@Suite struct TestCommandTests {
  @Test func aFailingTestGivesExit1AndTheCounts() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("mixed")])

    #expect(output.status == 1, "\(output)")
    #expect(output.lines.last == "1 passed, 1 failed", "\(output)")
  }

  @Test func theFailuresAreRecappedBeforeTheCounts() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("mixed")])

    let lines = output.lines
    let recap = try #require(lines.lastIndex(of: "Failed:"), "\(output)")
    #expect(lines[recap + 1].hasPrefix("  ✘ "), "\(output)")
    #expect(lines[recap + 1].hasSuffix("mixed_test.lua: decrement expects the wrong count  mixed_test.lua:11"), "\(output)")
    #expect(recap + 2 == lines.count - 1, "\(output)")
  }

  @Test func reportsInJUnitAndTapHoldATestcaseAndALinePerTest() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let junit = folder.appendingPathComponent("report.xml").path
    let tap = folder.appendingPathComponent("report.tap").path

    let output = try await Lunar.run(
      ["test", "--time-limit", "60", "--report", "junit", junit, "--report", "tap", tap, "--", Lunar.fixture("mixed")])
    #expect(output.status == 1, "\(output)")

    let check = try Lunar.runBlocking(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", """
      import sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      cases = root.findall("./testsuite/testcase")
      print(root.tag, root.get("tests"), root.get("failures"), len(root.findall("testsuite")))
      for case in cases:
          failure = case.find("failure")
          print(case.get("name"), "|", failure.get("message") if failure is not None else "passed")
      """, junit], input: Data(), in: folder, timeout: 60)
    #expect(check.status == 0, "\(check)")
    #expect(check.lines == [
      "testsuites 2 1 1",
      "increment adds one | passed",
      "decrement expects the wrong count | " + (check.lines.last?.components(separatedBy: " | ").last ?? ""),
    ], "\(check)")
    #expect(check.lines.last?.hasSuffix("mixed_test.lua:11: A state change does not match expectation: …") == true, "\(check)")

    let report = try String(contentsOfFile: tap, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(report.prefix(2) == ["TAP version 13", "1..2"], "\(report)")
    #expect(report[2].hasPrefix("ok 1 - ") && report[2].hasSuffix("mixed_test.lua: increment adds one"), "\(report)")
    #expect(report[3].hasPrefix("not ok 2 - ") && report[3].hasSuffix("mixed_test.lua: decrement expects the wrong count"), "\(report)")
    #expect(report.last == "  ...", "\(report)")
  }

  @Test func aReportMayComeBeforeOrAfterTheOtherOptions() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let before = folder.appendingPathComponent("before.tap").path
    let after = folder.appendingPathComponent("after.tap").path

    let first = try await Lunar.run(["test", Lunar.fixture("mixed"), "--filter", "increment", "--report", "tap", before])
    let second = try await Lunar.run(["test", "--report", "tap", after, "--filter", "increment", Lunar.fixture("mixed")])

    #expect(first.status == 0, "\(first)")
    #expect(second.status == 0, "\(second)")
    let report = try String(contentsOfFile: before, encoding: .utf8)
    #expect(report.hasPrefix("TAP version 13\n1..1\nok 1 - "), "\(report)")
    #expect(try String(contentsOfFile: after, encoding: .utf8) == report)
  }

  @Test func anUnknownReportFormatIsAnErrorNamingTheFormats() async throws {
    let output = try await Lunar.run(["test", "--report", "xml", "out.xml", Lunar.fixture("mixed")])

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains(
      #"unknown report format "xml": --report takes junit or tap and a file, as in --report junit report.xml"#), "\(output)")
  }

  @Test func aPathAfterAReportIsAnErrorSayingWhereToPutIt() async throws {
    let output = try await Lunar.run(["test", "--report", "junit", "out.xml", Lunar.fixture("mixed")])

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains(#"unknown report format "\#(Lunar.fixture("mixed"))" (after --report junit out.xml)"#), "\(output)")
    #expect(output.stderr.contains("write the test paths before --report"), "\(output)")
  }

  @Test func aReportWithoutItsFileIsAnError() async throws {
    let output = try await Lunar.run(["test", Lunar.fixture("mixed"), "--report", "tap"])

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("--report tap needs a file to write, as in --report tap report.tap"), "\(output)")
  }

  @Test func aFailureShowsItsFileLineAndADiff() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("mixed")])

    #expect(output.stdout.contains("✔ increment adds one"), "\(output)")
    #expect(output.stdout.contains("✘ decrement expects the wrong count"), "\(output)")
    #expect(output.stdout.contains("mixed_test.lua:11: A state change does not match expectation"), "\(output)")
    #expect(output.stdout.contains("          \u{2007} {\n          −   count = 5,\n          +   count = -1,\n          \u{2007} }\n"), "\(output)")
    #expect(output.stdout.contains("(Expected: −, Actual: +)"), "\(output)")
  }

  @Test func theHostLimitsApplyToTheTestsAsToRun() async throws {
    let output = try await Lunar.run(["test", "--instruction-limit", "50", Lunar.fixture("mixed"), "--filter", "increment"])

    #expect(output.status == 1, "\(output)")
    #expect(output.stdout.contains("ran out of its instruction budget"), "\(output)")
    #expect(output.lines.last == "0 passed, 1 failed", "\(output)")
  }

  @Test func filterRunsOnlyTheMatchingTests() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("mixed"), "--filter", "increment"])

    #expect(output.status == 0, "\(output)")
    #expect(output.lines.last == "1 passed, 0 failed", "\(output)")
    #expect(!output.stdout.contains("decrement"), "\(output)")
  }

  @Test func aFilterMatchingNothingIsAnError() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("mixed"), "--filter", "no such test"])

    #expect(output.status == 1, "\(output)")
    #expect(output.stderr.contains(#"no test matches --filter "no such test""#), "\(output)")
  }

  @Test func jsonWritesALinePerTestAndASummary() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("mixed"), "--json"])

    #expect(output.status == 1, "\(output)")
    let events = output.events
    #expect(events.count == output.lines.count, "\(output)")
    #expect(events.map { $0.name ?? "?" } == ["test", "test", "summary"])
    #expect(events[0].string("name") == "increment adds one")
    #expect(events[0]["passed"] as? Bool == true)
    #expect(events[1].string("name") == "decrement expects the wrong count")
    #expect(events[1]["passed"] as? Bool == false)
    #expect(events[1].string("declaredAt") == "mixed_test.lua:9")
    let failure = try #require((events[1]["failures"] as? [[String: Any]])?.first)
    #expect(failure["location"] as? String == "mixed_test.lua:11")
    #expect((failure["message"] as? String)?.contains("−   count = 5,\n    +   count = -1,") == true)
    #expect(events[2].int("passed") == 1)
    #expect(events[2].int("failed") == 1)
  }

  @Test func theExamplesTestsPass() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", "examples/counter"])

    #expect(output.status == 0, "\(output)")
    #expect(output.lines.last == "6 passed, 0 failed", "\(output)")
  }

  @Test func aPathWithNoTestsIsAnError() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("echo")])

    #expect(output.status == 1, "\(output)")
    #expect(output.stderr.contains("no *_test.lua files under"), "\(output)")
  }
}

extension TestCommandTests {
  @Test func anErrorRaisedInATestIsAFailureAtItsLineNamedOnce() async throws {
    let output = try await Lunar.run(["test", "--time-limit", "60", Lunar.fixture("raising")])

    #expect(output.status == 1, "\(output)")
    #expect(output.lines.contains("    raising_test.lua:4: kaboom"), "\(output)")
    #expect(output.lines.last == "0 passed, 1 failed", "\(output)")
  }
}
