import Foundation
import LuaFeatures

/// Where the prompt keeps the lines typed between runs: one history per feature (or plugins)
/// folder, kept in the user's home, never in the project.
///
/// The file is `$XDG_STATE_HOME/lunar/history/` (`~/.local/state/lunar/history/` when
/// `XDG_STATE_HOME` is not set) followed by the folder's absolute path with each `/` written `%`:
/// `lunar run examples/counter` in `/home/ada/app` keeps its lines in
/// `~/.local/state/lunar/history/%home%ada%app%examples%counter`. It holds the latest
/// ``size`` lines, in libedit's history format.
enum PromptHistory {
  /// How many lines a history keeps.
  static let size = 1000

  /// The longest file name a history gets (in bytes), well under the 255 file systems allow.
  static let maximumNameBytes = 200

  /// The history file of `folder`, or `nil` when no home is known.
  static func file(for folder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
    let base: URL
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      base = URL(fileURLWithPath: state, isDirectory: true)
    } else if let home = environment["HOME"], !home.isEmpty {
      base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state", isDirectory: true)
    } else {
      return nil
    }
    var name = folder.standardizedFileURL.path.replacingOccurrences(of: "/", with: "%")
    // NB: a file name holds 255 bytes: a deep folder keeps the end of its path and a hash of all of it.
    if name.utf8.count > maximumNameBytes {
      let hash = String(FNV1a.hash(name.utf8), radix: 16)
      name = "…" + String(decoding: name.utf8.suffix(maximumNameBytes - 40), as: UTF8.self) + "-" + hash
    }
    return base.appendingPathComponent("lunar/history", isDirectory: true).appendingPathComponent(name)
  }
}
