import Foundation
import LuaBridge

/// What the targets share: small VM limits, so that one slow input does not stall the fuzzer, and
/// a scratch folder for the parsers that read files.
enum FuzzScratch {
  /// Limits for the fuzzed VMs: enough for any sensible input, small enough that a looping or
  /// allocating one is cut off in milliseconds.
  static let limits = LuaVM.Limits(instructionsPerCall: 200_000, memoryBytes: 16 << 20, timePerCall: .milliseconds(250))

  /// A folder of its own for this process, made once.
  static let folder: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("lunar-fuzz-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// Writes `bytes` to `name` in the scratch folder (or a folder under it) and returns its URL.
  static func write(_ bytes: [UInt8], to name: String) -> URL {
    let url = folder.appendingPathComponent(name)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
    return url
  }
}
