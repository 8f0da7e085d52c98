import ArgumentParser
import Foundation
import LuaFeatures

/// Where dependencies get their data: recorded answers next to the feature, or the real services
/// (recording their answers, or not).
enum DependencyMode: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// `deps.http` answers from `fixtures/http/` in the feature's folder; no network.
  case offline
  /// Real requests, each answer written to `fixtures/http/`.
  case record
  /// Real requests; nothing recorded.
  case live

  /// The transport behind `deps.http` for a feature in `root`.
  func httpTransport(root: URL) -> HTTPTransport {
    let fixtures = root.appendingPathComponent("fixtures/http")
    switch self {
    case .offline: return .fixtures(in: fixtures)
    case .record: return .recording(to: fixtures)
    case .live: return .live
    }
  }
}

/// The Swift clients the `lunar` host registers for Lua features, besides the built-in `uuid`,
/// `now` and `clock`.
///
/// | Lua | offline | live |
/// | --- | --- | --- |
/// | `deps.numberFact.fetch(n)` | `facts.json` next to the feature, else a generic sentence | numbersapi.com |
/// | `deps.words.search(query)` | `words.txt` next to the feature | (same) |
/// | `deps.dogs.breeds()`, `deps.dogs.randomImage(breed)` | `data/` next to the feature | dog.ceo (`$LUNAR_DOGS_API`) |
enum ExampleClients {
  static func dependencies(mode: DependencyMode, root: URL) -> LuaDependencies {
    var dependencies = LuaDependencies.builtIn
    dependencies.offer(.http(mode.httpTransport(root: root)))
    dependencies.offer(.files(in: root))
    NumberFactClient.register(in: &dependencies, mode: mode, root: root)
    WordsClient.register(in: &dependencies, root: root)
    dependencies.offer(.storage(file: storageFile(for: root)))
    DogsClient.register(in: &dependencies, mode: mode, root: root)
    return dependencies
  }

  /// The `deps.storage` document of a feature in `root`: `$LUNAR_STORAGE` when set, else
  /// `<data>/lunar/storage/<folder name>.json`.
  static func storageFile(for root: URL) -> URL {
    if let path = ProcessInfo.processInfo.environment["LUNAR_STORAGE"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return LuaCapability.defaultStorageFile(for: root.standardizedFileURL.lastPathComponent)
  }
}
