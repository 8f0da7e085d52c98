import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What answers a feature's `deps.http` calls: the network, recorded fixtures, or your own.
///
/// ```swift
/// dependencies.offer(.http(.live))                              // real requests
/// dependencies.offer(.http(.fixtures(in: fixtures)))            // offline: recorded answers only
/// dependencies.offer(.http(.recording(to: fixtures)))           // real requests, answers recorded
/// dependencies.offer(.http(HTTPTransport { request in … }))     // through your app's own session
/// ```
///
/// > Important: `perform` must honour task cancellation: cancelling the effect that made the call
/// > cancels the task awaiting it, and the request should stop there.
public struct HTTPTransport: Sendable {
  /// Answers one request.
  public var perform: @Sendable (HTTPRequest) async throws -> HTTPResponse

  public init(perform: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
    self.perform = perform
  }

  /// Real requests through `URLSession` (an ephemeral session: no cookies or cache kept).
  ///
  /// Redirects are not followed: a 3xx answer reaches the script with its `location` header, and
  /// following it is a request of its own, which the host's checks see (a plugin granted one host
  /// cannot be led to another by that host's answers). A body is read as it arrives and the
  /// request fails once it passes ``HTTPRequest/maximumResponseBytes``.
  public static var live: HTTPTransport {
    let session = HTTPStreamingSession()
    return HTTPTransport { request in try await send(request, through: session) }
  }

  /// Recorded answers only, one file per request in `folder` (see ``HTTPFixture``); a request
  /// with no recording fails with ``HTTPError/missingFixture(method:url:file:)``.
  ///
  /// A recording must be a file of `root` (by default `folder` itself): one that is a symlink, or
  /// whose path leads out of `root` through one, is refused, as `deps.files` refuses it. A
  /// recording larger than the request's ``HTTPRequest/maximumResponseBytes`` allows is refused
  /// before it is read.
  public static func fixtures(in folder: URL, within root: URL? = nil) -> HTTPTransport {
    let root = root ?? folder
    return HTTPTransport { request in
      _ = try request.validURL()
      let file = folder.appendingPathComponent(HTTPFixture.fileName(for: request))
      guard FileManager.default.fileExists(atPath: file.path) else {
        throw HTTPError.missingFixture(method: request.method, url: request.url, file: HTTPFixture.displayPath(file))
      }
      return try HTTPFixture.read(file, within: root, maximumBodyBytes: request.maximumResponseBytes).response
    }
  }

  /// Real requests through `transport`, each answer written to `folder` for ``fixtures(in:within:)``.
  public static func recording(to folder: URL, through transport: HTTPTransport = .live) -> HTTPTransport {
    HTTPTransport { request in
      let response = try await transport.perform(request)
      try HTTPFixture(request: request, response: response).write(in: folder)
      return response
    }
  }

  static func send(_ request: HTTPRequest, through session: HTTPStreamingSession) async throws -> HTTPResponse {
    let url = try HTTPRequest.parse(request.url)
    // NB: plain HTTP is read with a bound of Lunar's own; a proxy the user set up
    //     (`http_proxy`) is the session's business.
    if url.scheme == "http", ProcessInfo.processInfo.environment["http_proxy", default: ""].isEmpty {
      return try await HTTPPlainExchange(request, url: url).response()
    }
    var urlRequest = URLRequest(url: try request.validURL())
    urlRequest.httpMethod = request.method
    urlRequest.timeoutInterval = request.timeout
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    if let body = request.body { urlRequest.httpBody = Data(body) }
    let data: Data
    let http: HTTPURLResponse
    do {
      (http, data) = try await session.response(to: urlRequest, url: request.url, limit: request.maximumResponseBytes)
    } catch let error as HTTPError {
      throw error
    } catch let error as URLError where error.code == .cancelled {
      throw CancellationError()
    } catch {
      try Task.checkCancellation()
      if let error = error as? URLError, error.code == .timedOut {
        throw HTTPError.timedOut(url: request.url, seconds: request.timeout)
      }
      throw HTTPError.unreachable(url: request.url, reason: reason(error))
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
    }
    return HTTPResponse(status: http.statusCode, headers: headers, body: Array(data))
  }

  static func reason(_ error: any Error) -> String {
    guard let error = error as? URLError else { return "\(error)" }
    switch error.code {
    case .cannotConnectToHost: return "the connection was refused"
    case .cannotFindHost, .dnsLookupFailed: return "the host name does not resolve"
    case .notConnectedToInternet, .networkConnectionLost: return "the network is unreachable"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
      return "the secure connection failed"
    default: return "URL error \(error.code.rawValue)"
    }
  }
}
