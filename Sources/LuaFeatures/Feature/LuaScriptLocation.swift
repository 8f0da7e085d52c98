import Foundation

/// Where a ``LuaScriptReducer``'s script is: a path in a bundle's resources, or relative to the
/// current directory.
public struct LuaScriptLocation: Hashable, Sendable, CustomStringConvertible {
  /// The path as written.
  public let path: String
  /// The bundle whose resources hold it, if any.
  public let bundle: Bundle?

  /// The script's place.
  public init(path: String, bundle: Bundle? = nil) {
    self.path = path
    self.bundle = bundle
  }

  /// The path `path` names: under the bundle's resources, or `path` itself.
  public var resolvedPath: String {
    guard let bundle else { return path }
    let base = bundle.resourceURL ?? bundle.bundleURL
    return base.appendingPathComponent(path).path
  }

  /// The resolved path.
  public var description: String { resolvedPath }

  /// The same path in the same bundle (bundles compared by their path).
  public static func == (lhs: LuaScriptLocation, rhs: LuaScriptLocation) -> Bool {
    lhs.path == rhs.path && lhs.bundle?.bundlePath == rhs.bundle?.bundlePath
  }

  /// Hashes the path and the bundle's path.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(bundle?.bundlePath)
  }
}
