import Foundation
import LuaFeatures

/// `deps.words.search(query)`: the bundled words (`words.txt`, one per line, next to the feature)
/// that contain `query`, case-insensitively, in file order.
enum WordsClient {
  static func register(in dependencies: inout LuaDependencies, root: URL) {
    let file = root.appendingPathComponent("words.txt")
    let words = (try? String(contentsOf: file, encoding: .utf8))?
      .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty } ?? []
    dependencies.async("words.search") { (query: String) async throws -> [String] in
      let needle = query.lowercased()
      guard !needle.isEmpty else { return [] }
      return words.filter { $0.lowercased().contains(needle) }
    }
  }
}
