import Foundation

extension Lunar {
  /// Where `lunar run` and `lunar test` keep the data of the feature in `feature` (a folder, or a
  /// script in it) under the data home `data`: `<data>/lunar/features/<folder name>-<16 hex digits>`,
  /// the digits those of the SHA-256 of the folder's real path, computed here by `sha256sum`, apart
  /// from Lunar's own code.
  static func featureDataFolder(for feature: URL, in data: URL) throws -> URL {
    var folder = feature.standardizedFileURL.resolvingSymlinksInPath()
    if folder.pathExtension == "lua" { folder.deleteLastPathComponent() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data(folder.path.utf8))
    try input.fileHandleForWriting.close()
    let digest = try output.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    let hex = String(decoding: digest.prefix(16), as: UTF8.self)
    return data.appendingPathComponent("lunar/features/\(folder.lastPathComponent)-\(hex)", isDirectory: true)
  }
}
