/// Why a `deps.http` call failed. Scripts see the description after `deps.http.get failed: `.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The script's request is not one (a bad URL, a field of the wrong type).
  case badRequest(String)
  /// The request never got an answer: the host does not resolve, the connection was refused…
  case unreachable(url: String, reason: String)
  /// No answer within the request's timeout.
  case timedOut(url: String, seconds: Double)
  /// Offline, and no recorded answer for this request.
  case missingFixture(method: String, url: String, file: String)
  /// A recorded answer exists but cannot be read.
  case badFixture(file: String, reason: String)
  /// The answer's body is longer than the request's ``HTTPRequest/maximumResponseBytes``: the
  /// transport stopped reading it there.
  case responseTooLarge(url: String, limit: Int)
  /// The answer could not be recorded.
  case cannotRecord(file: String, reason: String)

  public var description: String {
    switch self {
    case let .badRequest(message):
      return "request \(message)"
    case let .unreachable(url, reason):
      return "cannot reach \(url): \(reason)"
    case let .timedOut(url, seconds):
      return "no answer from \(url) within \(seconds.formatted) seconds"
    case let .missingFixture(method, url, file):
      return "no recorded response for \(method) \(url) (looked for \(file); record it with --deps record)"
    case let .badFixture(file, reason):
      return "the recorded response \(file) cannot be read: \(reason)"
    case let .responseTooLarge(url, limit):
      return "the answer from \(url) is longer than \(limit) bytes, the most a response may have here"
    case let .cannotRecord(file, reason):
      return "cannot record the response in \(file): \(reason)"
    }
  }
}

extension Double {
  fileprivate var formatted: String {
    self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
  }
}
