import Foundation
import LuaFeatures

/// The dependencies the `lunar` host offers a feature: the built-ins (`uuid`, `now`, `clock`) and
/// the capabilities `http`, `files` and `storage`, each over the feature's own folder.
///
/// Clients are the features' own business: a feature declares them in Lua over these
/// (`lunar.client "factClient" { … }`, as the examples do), so the host knows no example.
public enum HostDependencies {
  /// The dependencies of a feature in `root`, its `deps.http` answered as `mode` says, its
  /// `deps.storage` in `data` (``data(for:limit:)`` with the default limit when not given).
  public static func dependencies(mode: DependencyMode, root: URL, data: LuaFeatureData? = nil) -> LuaDependencies {
    let data = data ?? Self.data(for: root, limit: LuaFeatureData.defaultLimit)
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(mode.httpTransport(root: root)))
    dependencies.offer(.files(in: root))
    dependencies.offer(.storage(file: storageFile(of: data), fileStorage: data.fileStorage, quota: data.quota))
    return dependencies
  }

  /// Where the feature in `root` keeps its data when `lunar run` or `lunar test` runs it: a folder
  /// tied to the feature folder's real path, `<data>/lunar/features/<folder name>-<16 hex digits>/`
  /// (``LuaFeatureData/folder(for:name:in:)``, the rule plugins follow), holding its
  /// `storage.json` and its `shared/` files, which take at most `limit` bytes together (`nil`: no
  /// limit). Two feature folders of the same name keep their data apart.
  public static func data(for root: URL, limit: Int?) -> LuaFeatureData {
    let name = root.standardizedFileURL.lastPathComponent
    return LuaFeatureData(
      for: root, name: name, in: LuaFeatureData.defaultRoot("features"), fileStorage: .fileSystem,
      quota: LuaDataQuota(limit: limit, owner: "feature \(name)"))
  }

  /// Warns when data an earlier Lunar kept for the feature in `root` by its folder's name
  /// (`<data>/lunar/storage/<folder name>.json`, the `.json` files of `<data>/lunar/shared/`) is
  /// still there and `data`'s folder holds none yet. Nothing is moved: any folder could have had
  /// that name.
  public static func noteEarlierData(of root: URL, now data: LuaFeatureData) {
    let name = root.standardizedFileURL.lastPathComponent
    let manager = FileManager.default
    var earlier: [URL] = []
    let document = LuaCapability.defaultStorageFile(for: name)
    if manager.fileExists(atPath: document.path) { earlier.append(document) }
    let shared = LuaFeatureData.defaultRoot("shared")
    let files = (try? manager.contentsOfDirectory(atPath: shared.path)) ?? []
    if files.contains(where: { $0.hasSuffix(".json") }) { earlier.append(shared) }
    data.noteEarlierData(earlier, kind: "feature", name: name, reason: "any folder may have that name")
  }

  /// The `deps.storage` document of a feature whose data is `data`: `$LUNAR_STORAGE` when set,
  /// else `data`'s `storage.json`.
  public static func storageFile(of data: LuaFeatureData) -> URL {
    if let path = ProcessInfo.processInfo.environment["LUNAR_STORAGE"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return data.storageFile
  }
}
