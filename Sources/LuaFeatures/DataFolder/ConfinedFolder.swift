import Foundation

/// A folder that paths resolve inside, or not at all: the one rule behind `deps.files` (a
/// feature's own files) and a plugin's data folder (its storage and shared files).
///
/// A path is relative, with `/` between folders; an absolute path, `..`, a NUL byte, and a symlink
/// anywhere on the way that leads out of the folder are refused. The folder itself is resolved
/// (symlinks followed) at each call: a user may keep it behind a symlink of their own.
struct ConfinedFolder: Sendable {
  /// Why a path was refused, for the script (or the user) to read.
  struct Refusal: Error, CustomStringConvertible {
    let description: String
  }

  /// The folder, as given.
  let root: URL
  /// How messages name it: `the feature's folder`, `plugin dogs's data folder`.
  let name: String

  init(root: URL, name: String) {
    self.root = root.standardizedFileURL
    self.name = name
  }

  /// The folder with its symlinks resolved.
  var resolvedRoot: URL { root.resolvingSymlinksInPath() }

  /// `path` inside the folder, symlinks resolved, or the reason it is refused.
  func resolve(_ path: String) throws(Refusal) -> URL {
    if path.hasPrefix("/") || path.hasPrefix("~") { throw Refusal(description: "'\(path)' is absolute: paths are relative to \(name)") }
    if path.contains("\0") { throw Refusal(description: "a path cannot contain a NUL byte") }
    let segments = path.split(separator: "/", omittingEmptySubsequences: true)
    if segments.contains("..") { throw Refusal(description: "'\(path)' uses '..': paths stay inside \(name)") }
    let root = resolvedRoot
    let file = segments.reduce(root) { $0.appendingPathComponent(String($1)) }.standardizedFileURL.resolvingSymlinksInPath()
    guard file.path == root.path || file.path.hasPrefix(root.path + "/") else {
      throw Refusal(description: "'\(path)' leads out of \(name) (through a symlink)")
    }
    return file
  }

  /// `url` as a path relative to the folder, when it is written under it (before any symlink is
  /// resolved); `nil` otherwise.
  func relativePath(of url: URL) -> String? {
    let path = url.standardizedFileURL.path
    let rootPath = root.path
    if path == rootPath { return "" }
    let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
    guard path.hasPrefix(prefix) else { return nil }
    return String(path.dropFirst(prefix.count))
  }
}
