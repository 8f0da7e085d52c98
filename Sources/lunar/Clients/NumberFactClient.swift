import Foundation
import LuaFeatures
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `deps.numberFact.fetch(n)`: a fact about a number.
enum NumberFactClient {
  static func register(in dependencies: inout LuaDependencies, mode: DependencyMode, root: URL) {
    switch mode {
    case .offline:
      let facts = offlineFacts(root.appendingPathComponent("facts.json"))
      dependencies.async("numberFact.fetch") { (n: Int) async throws -> String in
        facts[String(n)] ?? "\(n) is a number with no bundled fact (try --deps live)."
      }
    case .live, .record:
      dependencies.async("numberFact.fetch") { (n: Int) async throws -> String in
        try await live(n)
      }
    }
  }

  /// `facts.json`: `{ "1": "1 is …", "2": … }`.
  static func offlineFacts(_ file: URL) -> [String: String] {
    guard let data = try? Data(contentsOf: file),
      let facts = try? JSONDecoder().decode([String: String].self, from: data)
    else { return [:] }
    return facts
  }

  static func live(_ n: Int) async throws -> String {
    guard let url = URL(string: "http://numbersapi.com/\(n)/trivia") else { throw URLError(.badURL) }
    var request = URLRequest(url: url)
    request.timeoutInterval = 10
    do {
      let (data, response) = try await URLSession.shared.data(for: request)
      guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
        throw NumberFactError(message: "numbersapi.com answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")
      }
      return String(decoding: data, as: UTF8.self)
    } catch let error as NumberFactError {
      throw error
    } catch {
      throw NumberFactError(message: "cannot reach numbersapi.com (\(error.localizedDescription)); run with --deps offline")
    }
  }
}

struct NumberFactError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
