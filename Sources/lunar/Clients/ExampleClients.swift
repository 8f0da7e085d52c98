import ArgumentParser
import Foundation
import LuaFeatures

/// Where dependencies get their data: bundled files next to the feature, or the real services.
enum DependencyMode: String, ExpressibleByArgument, CaseIterable, Sendable {
  case offline
  case live
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
    NumberFactClient.register(in: &dependencies, mode: mode, root: root)
    WordsClient.register(in: &dependencies, root: root)
    StorageClient.register(in: &dependencies, root: root)
    DogsClient.register(in: &dependencies, mode: mode, root: root)
    return dependencies
  }
}
