import Foundation
import Testing

/// What README.md and `docs/` show a command printing is what it prints: each documented session
/// runs here, in a copy of the examples, and its output is compared with the text.
@Suite struct DocumentedOutputTests {
  static var sessions: [DocumentedSession] {
    let root = Lunar.packageRoot
    let docs = root.appendingPathComponent("docs")
    let pages = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [])
      .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    return pages.flatMap { page in
      DocumentedSession.sessions(
        in: (try? String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)) ?? "", file: page)
    }
  }

  @Test func theDocsShowSessionsToCheck() {
    #expect(Self.sessions.count >= 8, "\(Self.sessions)")
  }

  @Test(arguments: sessions)
  func aDocumentedSessionPrintsWhatTheDocShows(_ session: DocumentedSession) async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try FileManager.default.copyItem(
      at: Lunar.packageRoot.appendingPathComponent("examples"), to: folder.appendingPathComponent("examples"))
    let scripts = folder.appendingPathComponent("scripts")
    try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
    let binary = try await Lunar.binary()
    // NB: a link to a script checked in, not a script written here: a file just written can be
    //     held open by a process another test forks at that moment, and running it then fails
    //     ("Text file busy").
    try FileManager.default.createSymbolicLink(
      at: scripts.appendingPathComponent("lunar"),
      withDestinationURL: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/documented/lunar"))

    let script = session.commands.joined(separator: "\n")
    let output = try await Lunar.shell(
      script, in: folder,
      environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "LUNAR_BINARY": binary.path])

    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let actual = Array(lines.reversed().drop { $0.isEmpty }.reversed())
    #expect(session.matches(actual), """
      \(session) shows what the commands no longer print. They print:
      \(actual.joined(separator: "\n"))
      """)
  }

  @Test func anElidedLineAndATimeMatch() {
    #expect(DocumentedSession.lineMatches("  ✔ increment (2.3 ms)", "  ✔ increment (14.75 ms)"))
    #expect(DocumentedSession.lineMatches(#"{"event":"ready",…}"#, #"{"event":"ready","state":{}}"#))
    #expect(!DocumentedSession.lineMatches("6 passed, 0 failed", "7 passed, 0 failed"))
  }
}
