import Foundation

/// One recorded HTTP exchange: a readable JSON file in a feature's `fixtures/http/` folder, named
/// for its request (`GET-numbersapi.com-42-1a2b3c4d.json`), so that `--deps offline` can answer the
/// same request again without the network.
///
/// ```json
/// {
///   "request" : { "method" : "GET", "url" : "http://numbersapi.com/42" },
///   "response" : { "body" : "42 is the answer.", "headers" : { "content-type" : "text/plain" }, "status" : 200 }
/// }
/// ```
///
/// A body that is not UTF-8 text is kept as `bodyBase64`. Edit a fixture freely (a status, a body):
/// only its name ties it to a request.
///
/// > Important: The name covers the method, the URL and the request body, not the headers: two
/// > requests that differ only in headers share a recording.
public struct HTTPFixture: Sendable, Equatable {
  public var request: HTTPRequest
  public var response: HTTPResponse

  public init(request: HTTPRequest, response: HTTPResponse) {
    self.request = request
    self.response = response
  }

  /// The file name a request's recording has.
  public static func fileName(for request: HTTPRequest) -> String {
    let hash = FNV1a.hash(request.body ?? [], seed: FNV1a.hash("\(request.method) \(request.url)\n".utf8))
    let hex = String(UInt32(truncatingIfNeeded: hash ^ (hash >> 32)), radix: 16)
    return "\(request.method)-\(slug(request.url))-\(String(repeating: "0", count: 8 - hex.count) + hex).json"
  }

  /// The URL without its scheme, as a short file-name-safe string.
  static func slug(_ url: String) -> String {
    var text = Substring(url)
    if let scheme = text.range(of: "://") { text = text[scheme.upperBound...] }
    var slug = ""
    for character in text {
      let safe = character.isASCII && (character.isLetter || character.isNumber || character == ".")
      if safe {
        slug.append(character)
      } else if !slug.hasSuffix("-") {
        slug.append("-")
      }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    return slug.isEmpty ? "root" : String(slug.prefix(60))
  }

  static func displayPath(_ file: URL) -> String { file.standardizedFileURL.path }

  /// Reads a recording, a file of `root` (by default its own folder) that is not a symlink,
  /// whose response body has at most `maximumBodyBytes`.
  ///
  /// The file's size is checked before it is read: a recording may hold its body in base64, so it
  /// may have a third more than `maximumBodyBytes`, and 64 KiB for the rest.
  public static func read(
    _ file: URL, within root: URL? = nil, maximumBodyBytes: Int = HTTPRequest.defaultMaximumResponseBytes
  ) throws(HTTPError) -> HTTPFixture {
    let limit = min(maximumBodyBytes, Int.max / 4)
    let data = try contents(of: file, within: root ?? file.deletingLastPathComponent(), maximumBytes: limit + limit / 3 + (64 << 10))
    let stored: Stored
    do {
      stored = try JSONDecoder().decode(Stored.self, from: data)
    } catch {
      throw .badFixture(file: displayPath(file), reason: "\(error)")
    }
    guard let body = stored.response.bytes(), let requestBody = stored.request.bytes() else {
      throw .badFixture(file: displayPath(file), reason: "bodyBase64 is not base64")
    }
    guard body.count <= limit else {
      throw .badFixture(file: displayPath(file), reason: "its body has \(body.count) bytes, over the limit of \(limit) bytes for a response here")
    }
    return HTTPFixture(
      request: HTTPRequest(method: stored.request.method, url: stored.request.url, body: requestBody.isEmpty && stored.request.isBodyless ? nil : requestBody),
      response: HTTPResponse(status: stored.response.status ?? 200, headers: stored.response.headers ?? [:], body: body)
    )
  }

  /// Writes the recording into `folder` (created if needed), replacing an older one atomically.
  public func write(in folder: URL) throws(HTTPError) {
    let file = folder.appendingPathComponent(Self.fileName(for: request))
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let stored = Stored(
        request: .init(method: request.method, url: request.url, body: request.body),
        response: .init(status: response.status, headers: response.headers, body: response.body)
      )
      try (encoder.encode(stored) + Data("\n".utf8)).write(to: file, options: .atomic)
    } catch {
      throw .cannotRecord(file: Self.displayPath(file), reason: "\(error)")
    }
  }

  /// The file's layout.
  struct Stored: Codable {
    struct Request: Codable {
      var method: String
      var url: String
      var body: String?
      var bodyBase64: String?

      init(method: String, url: String, body: [UInt8]?) {
        self.method = method
        self.url = url
        if let body { (self.body, self.bodyBase64) = Stored.text(body) }
      }

      var isBodyless: Bool { body == nil && bodyBase64 == nil }
      func bytes() -> [UInt8]? { Stored.bytes(body, bodyBase64) }
    }

    struct Response: Codable {
      var status: Int?
      var headers: [String: String]?
      var body: String?
      var bodyBase64: String?

      init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        (self.body, self.bodyBase64) = Stored.text(body)
      }

      func bytes() -> [UInt8]? { Stored.bytes(body, bodyBase64) }
    }

    var request: Request
    var response: Response

    /// Text when the bytes are UTF-8, else base64.
    static func text(_ bytes: [UInt8]) -> (String?, String?) {
      if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
      return (nil, Data(bytes).base64EncodedString())
    }

    static func bytes(_ text: String?, _ base64: String?) -> [UInt8]? {
      if let base64 { return Data(base64Encoded: base64).map(Array.init) }
      return Array((text ?? "").utf8)
    }
  }
}
