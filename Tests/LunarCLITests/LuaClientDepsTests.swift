import Foundation
import Testing

/// `--deps` for a client written in Lua (`Fixtures/quotes`: its `quoteClient` reads a server's
/// base URL from `server.txt` with `deps.files.read`, then asks it through `deps.http`), against a
/// server on 127.0.0.1 — never the internet. Each test runs a copy of the feature in a temporary
/// folder, so recordings never land in the source tree.
@Suite(.enabled(if: LocalFileServer.available)) struct LuaClientDepsTests {
  static let fixture = Lunar.testsFolder.appendingPathComponent("Fixtures/quotes")
  static let first = "Simplicity is prerequisite for reliability."
  static let quotes = ["quotes/1": first, "quotes/2": "Beware of bugs in the above code."]

  /// A copy of `Fixtures/quotes` whose `server.txt` names `server`.
  static func feature(server: String) throws -> URL {
    let folder = try makeTemporaryFolder().appendingPathComponent("quotes")
    try FileManager.default.copyItem(at: fixture, to: folder)
    try Data((server + "\n").utf8).write(to: folder.appendingPathComponent("server.txt"))
    return folder
  }

  /// `lunar run <feature> [--deps <deps>]` with `input` piped in.
  static func run(_ feature: URL, deps: String? = nil, input: String) async throws -> Lunar.Output {
    try await Lunar.run(["run", feature.path, "--json"] + (deps.map { ["--deps", $0] } ?? []), input: input)
  }

  static func recordings(of feature: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: feature.appendingPathComponent("fixtures/http").path)) ?? []
  }

  @Test func liveReachesTheServerAndRecordsNothing() async throws {
    let server = try LocalFileServer(files: Self.quotes)
    defer { server.stop() }
    let feature = try Self.feature(server: server.url)
    defer { removeTemporaryFolder(feature.deletingLastPathComponent()) }

    let output = try await Self.run(feature, deps: "live", input: "fetch n=2\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("state").last?.state?["quote"] as? String == Self.quotes["quotes/2"], "\(output)")
    #expect(server.requested("/quotes/2"), "\(server.requests())")
    #expect(Self.recordings(of: feature).isEmpty)
  }

  @Test func recordWritesARecordingThatOfflineAnswersFromWithTheServerStopped() async throws {
    let server = try LocalFileServer(files: Self.quotes)
    let feature = try Self.feature(server: server.url)
    defer { removeTemporaryFolder(feature.deletingLastPathComponent()) }

    let recorded = try await Self.run(feature, deps: "record", input: "fetch n=1\n")
    server.stop()
    #expect(recorded.status == 0, "\(recorded)")
    #expect(recorded.events.named("state").last?.state?["quote"] as? String == Self.first, "\(recorded)")
    let files = Self.recordings(of: feature)
    #expect(files.count == 1 && files[0].hasPrefix("GET-127.0.0.1-"), "\(files)")
    let recording = try String(contentsOf: feature.appendingPathComponent("fixtures/http/\(files[0])"), encoding: .utf8)
    #expect(recording.contains(#""url" : "\#(server.url)/quotes/1""#) && recording.contains(Self.first), "\(recording)")

    let offline = try await Self.run(feature, input: "fetch n=1\n")
    #expect(offline.status == 0, "\(offline)")
    #expect(offline.events.named("state").last?.state?["quote"] as? String == Self.first, "\(offline)")
  }

  @Test func offlineARequestWithoutARecordingIsAnErrorTheFeatureShowsAndTheServerNeverSees() async throws {
    let server = try LocalFileServer(files: Self.quotes)
    defer { server.stop() }
    let feature = try Self.feature(server: server.url)
    defer { removeTemporaryFolder(feature.deletingLastPathComponent()) }

    let output = try await Self.run(feature, input: "fetch n=2\n")

    #expect(output.status == 0, "\(output)")
    let error = try #require(output.events.named("state").last?.state?["error"] as? String, "\(output)")
    #expect(error.contains("deps.http.get failed: no recorded response for GET \(server.url)/quotes/2 (looked for "), "\(error)")
    #expect(error.contains("/fixtures/http/GET-127.0.0.1-"), "\(error)")
    #expect(error.hasSuffix("record it with --deps record)"), "\(error)")
    #expect(server.requests().isEmpty, "\(server.requests())")
  }

  @Test func liveAnUnreachableServerIsAnErrorTheFeatureShows() async throws {
    // NB: Port 1 on the loopback interface: nothing listens there, so the connection is refused.
    let feature = try Self.feature(server: "http://127.0.0.1:1")
    defer { removeTemporaryFolder(feature.deletingLastPathComponent()) }

    let output = try await Self.run(feature, deps: "live", input: "fetch n=1\n")

    #expect(output.status == 0, "\(output)")
    let error = try #require(output.events.named("state").last?.state?["error"] as? String, "\(output)")
    #expect(error.contains("deps.http.get failed: cannot reach http://127.0.0.1:1/quotes/1: the connection was refused"), "\(error)")
  }

  @Test func lunarTestRunsTheRealClientAgainstTheRecordingsNotTheServer() async throws {
    let server = try LocalFileServer(files: Self.quotes)
    defer { server.stop() }
    let feature = try Self.feature(server: server.url)
    defer { removeTemporaryFolder(feature.deletingLastPathComponent()) }

    let before = try await Lunar.run(["test", "--time-limit", "60", feature.path])
    #expect(before.status == 1, "\(before)")
    #expect(before.stdout.contains("no recorded response for GET \(server.url)/quotes/1"), "\(before)")
    #expect(server.requests().isEmpty, "\(server.requests())")

    _ = try await Self.run(feature, deps: "record", input: "fetch n=1\n")
    let after = try await Lunar.run(["test", "--time-limit", "60", feature.path])
    #expect(after.status == 0, "\(after)")
    #expect(after.stdout.contains("1 passed, 0 failed"), "\(after)")
    #expect(server.requested("/quotes/1") && server.requests().count == 1, "the recording asks once, the tests never: \(server.requests())")
  }
}
