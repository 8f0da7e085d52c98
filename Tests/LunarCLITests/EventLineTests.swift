import Foundation
import Testing

/// The JSON lines of `lunar check`, `lunar list` and `lunar test`, byte for byte: keys sorted, a
/// missing value written `null`, `lunar test`'s summary in its own order.
@Suite struct EventLineTests {
  @Test func checkWritesOneExactLinePerFeatureWithItsPluginManifest() async throws {
    let output = try await Lunar.run(["check", "examples/counter", "--json"])

    #expect(output.status == 0, "\(output)")
    #expect(output.lines == [
      #"{"event":"check","feature":"Counter","ok":true,"path":"examples/counter/feature.lua","plugin":{"api":1,"capabilities":{"http":{"hosts":["numbersapi.com"]}},"name":"counter","version":"1.0.0"},"problems":[]}"#,
    ])
  }

  @Test func checkWritesAProblemWithNullWhereItsPlaceIsUnknown() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try Data("return 42\n".utf8).write(to: folder.appendingPathComponent("feature.lua"))

    let output = try await Lunar.run(["check", folder.appendingPathComponent("feature.lua").path, "--json"])

    #expect(output.status == 1, "\(output)")
    let line = try #require(output.lines.first, "\(output)")
    #expect(line.hasPrefix(#"{"event":"check","feature":null,"ok":false,"path":""#), "\(line)")
    #expect(line.contains(#"/feature.lua","plugin":null,"problems":[{"file":"feature.lua","line":null,"message":"feature.lua must return"#), "\(line)")
    #expect(line.hasSuffix(#""}]}"#), "\(line)")
  }

  @Test func listWritesOneExactLinePerFeature() async throws {
    let output = try await Lunar.run(["list", "examples/counter", "--json"])

    #expect(output.status == 0, "\(output)")
    #expect(output.lines == [
      #"{"actions":["increment","decrement","factTapped","factLoaded","factFailed","toggleTimer","tick"],"dependencies":["factClient.fetch","clock.sleep","http.get"],"event":"feature","name":"Counter","ok":true,"path":"examples/counter/feature.lua"}"#,
    ])
  }

  @Test func testWritesEachTestsFieldsThenTheSummaryInItsOrder() async throws {
    let output = try await Lunar.run(["test", "examples/counter", "--json", "--time-limit", "60"])

    #expect(output.status == 0, "\(output)")
    let tests = output.lines.dropLast()
    #expect(!tests.isEmpty, "\(output)")
    for line in tests {
      #expect(line.range(
        of: #"^\{"declaredAt":"counter_test\.lua:[0-9]+","event":"test","failures":\[\],"file":"[^"]+/examples/counter/counter_test\.lua","milliseconds":[0-9.e-]+,"name":"[^"]+","passed":true\}$"#,
        options: .regularExpression) != nil, "\(line)")
    }
    #expect(output.lines.last == #"{"event":"summary","passed":\#(tests.count),"failed":0}"#, "\(output)")
  }
}
