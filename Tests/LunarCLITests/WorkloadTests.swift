import Foundation
import Testing

/// `lunar-workload`, the profiler's driver behind `scripts/instructions`: it runs each workload
/// and refuses what it does not know.
struct WorkloadTests {
  func run(_ arguments: [String]) async throws -> Int32 {
    let binary = try await Lunar.binary().deletingLastPathComponent().appendingPathComponent("lunar-workload")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no lunar-workload next to lunar")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // NB: waiting blocks a thread: off the cooperative pool.
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        process.waitUntilExit()
        continuation.resume()
      }
    }
    return process.terminationStatus
  }

  @Test(arguments: ["bare", "lua", "lua-unbudgeted", "lone", "compose", "bridgeCall", "bareEncode"])
  func everyWorkloadRuns(_ workload: String) async throws {
    #expect(try await run([workload, "20"]) == 0)
  }

  @Test(arguments: ["increment", "twoWrites", "nested", "toggleRow", "toggleRow10", "addRemove", "addRemove10", "effect"])
  func everyActionOfTheMixRunsOnLunarAndReduxStyle(_ action: String) async throws {
    // NB: an odd count: each side checks at the end that its state is what the actions make.
    #expect(try await run(["lunar-\(action)", "21"]) == 0)
    #expect(try await run(["read-\(action)", "21"]) == 0)
    #expect(try await run(["redux-\(action)", "21"]) == 0)
  }

  @Test func anUnknownWorkloadIsAUsageError() async throws {
    #expect(try await run(["nope", "20"]) == 2)
    #expect(try await run(["lua"]) == 2)
    #expect(try await run(["lunar-nope", "20"]) == 2)
  }
}
