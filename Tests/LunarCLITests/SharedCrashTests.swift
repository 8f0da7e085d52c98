import Foundation
import Testing

/// A host killed in the middle of saving shared state leaves the last good value on disk, never a
/// torn file (issue 9: writes go to a temporary file that is renamed over the old one).
struct SharedCrashTests {
  @Test func aHostKilledWhileSavingLeavesTheLastGoodValue() async throws {
    let data = try makeTemporaryFolder()
    defer { removeTemporaryFolder(data) }
    let binary = try await Lunar.binary()
    let feature = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/crash/feature.lua")
    let file = try Lunar.featureDataFolder(for: feature, in: data).appendingPathComponent("shared/crash-tally.json")

    var lastCount = 0
    for round in 0..<3 {
      let process = Process()
      process.executableURL = binary
      process.arguments = ["run", feature.path, "--json"]
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_DATA_HOME"] = data.path
      process.environment = environment
      let input = Pipe()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // NB: only the child reads: with our read end closed, writes after the kill fail (EPIPE,
      //     SIGPIPE ignored) instead of blocking forever on a full pipe.
      try input.fileHandleForReading.close()
      signal(SIGPIPE, SIG_IGN)
      // NB: a thread of its own: a blocking write must never hold a cooperative thread.
      let handle = input.fileHandleForWriting
      let writer = Thread {
        let line = Data("bump\n".utf8)
        for _ in 0..<20_000 {
          do { try handle.write(contentsOf: line) } catch { return }
        }
      }
      writer.start()
      // NB: kill only once this round's saves are under way. A fixed delay was not enough: on a
      //     loaded CI machine the host had not reached its first save after 300 ms.
      let deadline = ContinuousClock.now + .seconds(30)
      while savedCount(file) <= lastCount, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
      }
      try await Task.sleep(for: .milliseconds(20 + 40 * round))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      while writer.isExecuting { try await Task.sleep(for: .milliseconds(10)) }
      try? handle.close()

      let contents = try Data(contentsOf: file)
      let value = try JSONSerialization.jsonObject(with: contents) as? [String: Any]
      let n = try #require(value?["n"] as? Int, "round \(round): \(String(decoding: contents.prefix(200), as: UTF8.self))")
      #expect(n > lastCount, "round \(round) saved")
      lastCount = n
      #expect((value?["padding"] as? String)?.count == 4096 + n % 97, "the document is whole")
    }
  }

  /// The count in the saved document, or 0 while there is none (reading races the renames, which
  /// is the point: a reader sees the old document or the new one).
  private func savedCount(_ file: URL) -> Int {
    guard let contents = try? Data(contentsOf: file),
      let value = try? JSONSerialization.jsonObject(with: contents) as? [String: Any]
    else { return 0 }
    return value["n"] as? Int ?? 0
  }
}
