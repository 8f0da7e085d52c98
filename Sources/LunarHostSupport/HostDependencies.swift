import Foundation
import LuaFeatures

/// The dependencies the `lunar` host offers a feature: the built-ins (`uuid`, `now`, `clock`) and
/// the capabilities `http`, `files` and `storage`, each over the feature's own folder.
///
/// Clients are the features' own business: a feature declares them in Lua over these
/// (`lunar.client "factClient" { … }`, as the examples do), so the host knows no example.
public enum HostDependencies {
  /// The dependencies of a feature in `root`, its `deps.http` answered as `mode` says.
  public static func dependencies(mode: DependencyMode, root: URL) -> LuaDependencies {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(mode.httpTransport(root: root)))
    dependencies.offer(.files(in: root))
    dependencies.offer(.storage(file: storageFile(for: root)))
    return dependencies
  }

  /// The `deps.storage` document of a feature in `root`: `$LUNAR_STORAGE` when set, else
  /// `<data>/lunar/storage/<folder name>.json`.
  public static func storageFile(for root: URL) -> URL {
    if let path = ProcessInfo.processInfo.environment["LUNAR_STORAGE"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return LuaCapability.defaultStorageFile(for: root.standardizedFileURL.lastPathComponent)
  }
}
