import Foundation
import LuaFeatures
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `deps.dogs.breeds()` and `deps.dogs.randomImage(breed)`: the dog.ceo API, for `examples/dogs`.
///
/// | Lua | offline (default) | live (`--deps live`) |
/// | --- | --- | --- |
/// | `deps.dogs.breeds()` | `data/breeds.json` next to the feature | `GET /api/breeds/list/all` |
/// | `deps.dogs.randomImage(breed)` | one of `data/images/<breed>.json`, in turn | `GET /api/breed/<breed>/images/random` |
///
/// `breeds()` is an array of `{ name = "hound", subBreeds = { "afghan", … } }` sorted by name (the
/// API's object has no order Lua could keep); `randomImage` is a URL string. The bundled files have
/// the API's shape: `{"message": {"hound": ["afghan", …], …}, "status": "success"}` for the list and
/// `{"message": ["https://…jpg", …], "status": "success"}` (`/api/breed/<breed>/images`) per breed.
/// Offline, a breed's pictures are handed out in turn, so a run is the same every time.
///
/// Live, the base URL is `$LUNAR_DOGS_API` (default `https://dog.ceo`), each request times out after
/// ten seconds, and a network failure is an error that says so.
enum DogsClient {
  static func register(in dependencies: inout LuaDependencies, mode: DependencyMode, root: URL) {
    switch mode {
    case .offline:
      let data = root.appendingPathComponent("data")
      let rotation = ImageRotation()
      dependencies.async("dogs.breeds") { () async throws -> [Breed] in
        try breeds(from: read(data.appendingPathComponent("breeds.json")))
      }
      dependencies.async("dogs.randomImage") { (breed: String) async throws -> String in
        let file = data.appendingPathComponent("images").appendingPathComponent("\(try checked(breed)).json")
        guard FileManager.default.fileExists(atPath: file.path) else {
          throw DogsClientError(message: "no bundled pictures of \"\(breed)\" (data/images/\(breed).json); try --deps live")
        }
        let images = try decode(Message<[String]>.self, from: read(file)).message
        guard let url = rotation.next(of: images, for: breed) else {
          throw DogsClientError(message: "data/images/\(breed).json lists no pictures")
        }
        return url
      }
    case .live, .record:
      let api = Live(base: ProcessInfo.processInfo.environment["LUNAR_DOGS_API"] ?? "https://dog.ceo")
      dependencies.async("dogs.breeds") { () async throws -> [Breed] in
        try breeds(from: await api.get("/api/breeds/list/all"))
      }
      dependencies.async("dogs.randomImage") { (breed: String) async throws -> String in
        let path = "/api/breed/\(try checked(breed))/images/random"
        return try decode(Message<String>.self, from: await api.get(path)).message
      }
    }
  }

  /// A breed as Lua sees it.
  struct Breed: Codable, Sendable, Equatable {
    var name: String
    var subBreeds: [String]
  }

  /// dog.ceo's envelope: `{"message": …, "status": "success"}`.
  struct Message<Content: Decodable>: Decodable {
    var message: Content
  }

  static func breeds(from data: (Data, String)) throws -> [Breed] {
    let list = try decode(Message<[String: [String]]>.self, from: data.0, source: data.1).message
    return list.map { Breed(name: $0.key, subBreeds: $0.value) }.sorted { $0.name < $1.name }
  }

  /// A breed name as dog.ceo spells it (`hound`, or `hound/afghan` for a sub-breed): never a path
  /// that leaves the data folder or the API.
  static func checked(_ breed: String) throws -> String {
    let parts = breed.split(separator: "/", omittingEmptySubsequences: false)
    guard !breed.isEmpty, parts.count <= 2,
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } })
    else {
      throw DogsClientError(message: "\"\(breed)\" is not a breed name (like \"hound\" or \"hound/afghan\")")
    }
    return breed
  }

  static func read(_ file: URL) throws -> (Data, String) {
    do {
      return (try Data(contentsOf: file), file.path)
    } catch {
      throw DogsClientError(message: "cannot read \(file.path); try --deps live")
    }
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: Data, source: String) throws -> T {
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw DogsClientError(message: "\(source) is not dog.ceo's JSON ({\"message\": …, \"status\": \"success\"})")
    }
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: (Data, String)) throws -> T {
    try decode(type, from: data.0, source: data.1)
  }

  /// Hands out a breed's pictures in turn: the first call gets the first, and so on, round.
  final class ImageRotation: @unchecked Sendable {
    private let lock = NSLock()
    private var served: [String: Int] = [:]

    func next(of images: [String], for breed: String) -> String? {
      guard !images.isEmpty else { return nil }
      return lock.withLock {
        let count = served[breed, default: 0]
        served[breed] = count + 1
        return images[count % images.count]
      }
    }
  }

  /// The real API over HTTP.
  struct Live: Sendable {
    let base: String
    static let timeout: TimeInterval = 10

    init(base: String) {
      self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    /// The body of a 200 answer to `GET base + path`, and the URL it came from.
    func get(_ path: String) async throws -> (Data, String) {
      let address = base + path
      guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https" else {
        throw DogsClientError(message: "\(address) is not an http(s) URL (check LUNAR_DOGS_API)")
      }
      var request = URLRequest(url: url)
      request.timeoutInterval = Self.timeout
      let data: Data
      let response: URLResponse
      do {
        (data, response) = try await URLSession.shared.data(for: request)
      } catch {
        throw DogsClientError(message: "cannot reach \(base): \(Self.reason(error)); check the network, or run with --deps offline")
      }
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      guard status == 200 else {
        let said = (try? JSONDecoder().decode(Message<String>.self, from: data)).map { ": \($0.message)" } ?? ""
        throw DogsClientError(message: "\(address) answered HTTP \(status)\(said)")
      }
      return (data, address)
    }

    static func reason(_ error: any Error) -> String {
      guard let error = error as? URLError else { return "\(error)" }
      switch error.code {
      case .timedOut: return "no answer within \(Int(timeout)) seconds"
      case .cannotConnectToHost: return "the connection was refused"
      case .cannotFindHost, .dnsLookupFailed: return "the host name does not resolve"
      case .notConnectedToInternet, .networkConnectionLost: return "the network is unreachable"
      default: return "URL error \(error.code.rawValue)"
      }
    }
  }
}

/// A failure of the dogs client, as Lua sees it: `deps.dogs.breeds failed: <message>`.
struct DogsClientError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
