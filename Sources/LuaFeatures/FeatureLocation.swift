import Foundation

/// Where a feature's script lives, resolved from a path given by a user.
///
/// A path is either a `.lua` file, or a folder holding `feature.lua` (preferred) or `main.lua`.
///
/// ```swift
/// let location = try FeatureLocation(resolving: "examples/counter")
/// location.script // …/examples/counter/feature.lua
/// location.root   // …/examples/counter (where `require` looks for modules)
/// ```
public struct FeatureLocation: Equatable, Sendable {
  /// The feature's main script.
  public let script: URL
  /// The folder `require` resolves modules in: the script's folder.
  public var root: URL { script.deletingLastPathComponent() }

  /// The file names looked up, in order, when a folder is given.
  public static let entryNames = ["feature.lua", "main.lua"]

  /// Resolves `path` (relative to the current directory) to a feature script.
  ///
  /// - Throws: ``FeatureLocationError`` when nothing matches, naming what was tried.
  public init(resolving path: String) throws {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw FeatureLocationError.notFound(path: path)
    }
    if !isDirectory.boolValue {
      guard url.pathExtension == "lua" else { throw FeatureLocationError.notLua(path: path) }
      self.script = url
      return
    }
    for name in Self.entryNames {
      let candidate = url.appendingPathComponent(name)
      if FileManager.default.fileExists(atPath: candidate.path) {
        self.script = candidate
        return
      }
    }
    throw FeatureLocationError.noEntry(folder: path, tried: Self.entryNames)
  }
}

/// Why a path given by a user does not name a feature.
public enum FeatureLocationError: Error, Equatable, CustomStringConvertible {
  /// Nothing exists at the path.
  case notFound(path: String)
  /// The path is a file that is not a `.lua` script.
  case notLua(path: String)
  /// The folder holds none of the entry scripts.
  case noEntry(folder: String, tried: [String])

  public var description: String {
    switch self {
    case let .notFound(path):
      return "no such file or folder: \(path)"
    case let .notLua(path):
      return "\(path) is not a Lua script (expected a .lua file or a feature folder)"
    case let .noEntry(folder, tried):
      return "\(folder) holds no feature script (looked for \(tried.joined(separator: ", ")))"
    }
  }
}
