import Foundation

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

  /// Real requests, `http://` and `https://` alike, through libcurl (no cookies, cache or
  /// `.netrc` kept or read; a proxy set in the environment is used).
  ///
  /// Redirects are not followed: a 3xx answer reaches the script with its `location` header, and
  /// following it is a request of its own, which the host's checks see (a plugin granted one host
  /// cannot be led to another by that host's answers). A body is read as it arrives and the
  /// request fails once it passes ``HTTPRequest/maximumResponseBytes`` (or as soon as its head
  /// declares a longer one), so an answer never takes much more of the host's memory than that.
  public static var live: HTTPTransport { live(HTTPCurlExchange.Options()) }

  /// ``live`` with what a test changes: the certificates trusted for `https`, the proxy.
  static func live(_ options: HTTPCurlExchange.Options) -> HTTPTransport {
    HTTPTransport { request in
      let url = try HTTPRequest.parse(request.url)
      return try await HTTPCurlExchange(request, url: url, options: options).response()
    }
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
}
