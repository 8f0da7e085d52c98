/// What one libcurl transfer has received: the head of the final answer and at most the
/// request's limit of body. libcurl hands it each header line and each piece of body as they
/// arrive, on the transfer's thread; a `false` from ``header(_:)`` or ``body(_:)`` stops the
/// transfer there, before libcurl reads more.
final class HTTPCurlReceiver {
  /// Why the receiver stopped a transfer.
  enum Refusal: Equatable {
    /// The body passed the limit, or a declared length does.
    case tooLarge
    /// One answer's status line and headers passed ``HTTPCurlReceiver/maximumHeadBytes``.
    case headTooLong
  }

  /// The most bytes of one answer's status line and headers.
  static let maximumHeadBytes = 64 << 10

  let limit: Int
  /// Whether the answer has no body whatever its headers say (a `HEAD` request).
  let bodyless: Bool
  private(set) var status = 0
  private(set) var headers: [String: String] = [:]
  private(set) var body: [UInt8] = []
  private(set) var refusal: Refusal?
  private var headBytes = 0
  private var headComplete = false

  init(limit: Int, bodyless: Bool) {
    self.limit = limit
    self.bodyless = bodyless
  }

  /// Takes one line of a head (libcurl gives them one at a time, the line break included).
  func header(_ line: UnsafeRawBufferPointer) -> Bool {
    let text = String(decoding: line, as: UTF8.self)
    if text.hasPrefix("HTTP/") {
      // NB: each answer starts over: an interim one (100 Continue, 103 Early Hints) precedes the real one.
      status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
      headers = [:]
      headBytes = 0
      headComplete = false
    }
    // NB: lines after the final head are a chunked body's trailers, which the answer does not carry.
    if headComplete { return true }
    headBytes += line.count
    if headBytes > Self.maximumHeadBytes {
      refusal = .headTooLong
      return false
    }
    let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if content.isEmpty {
      guard status / 100 != 1 || status == 101 else { return true }
      headComplete = true
      // NB: a declared length past the limit is refused before any of the body is read.
      if let length = headers["content-length"].flatMap({ Int($0) }), length > limit, !bodyless,
        status != 204, status != 304
      {
        refusal = .tooLarge
        return false
      }
      return true
    }
    guard !text.hasPrefix("HTTP/"), let colon = content.firstIndex(of: ":") else { return true }
    let name = content[..<colon].lowercased()
    let value = content[content.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    return true
  }

  /// Takes a piece of body, or refuses it once the body would pass the limit.
  func body(_ piece: UnsafeRawBufferPointer) -> Bool {
    guard piece.count <= limit - body.count else {
      refusal = .tooLarge
      body = []
      return false
    }
    body.append(contentsOf: piece)
    return true
  }
}
