import CCurl
import Foundation
#if canImport(Glibc)
  import Glibc
#endif

/// One request through libcurl, `http://` and `https://` alike, read with a bound: the live
/// transport's way. libcurl hands each piece of the body to ``HTTPCurlReceiver`` as it reads it,
/// and the transfer stops as soon as the body passes the request's limit (or its head declares a
/// longer one), so the host never holds much more than the limit for an answer.
///
/// Redirects are not followed, only `http` and `https` are spoken, and no cookie, `.netrc` or
/// cache is read or kept. A proxy set in the environment (`http_proxy`, `https_proxy`,
/// `no_proxy`) is used, with the same bound.
final class HTTPCurlExchange: Sendable {
  private let request: HTTPRequest
  private let url: HTTPURL
  private let options: Options
  private let control = Control()

  /// What a test changes in the live transport.
  struct Options: Sendable {
    /// A PEM file of the certificates to trust instead of the system's (a test serving `https`
    /// on 127.0.0.1 with a certificate of its own).
    var certificateAuthorities: String?
    /// The proxy every request goes through (`http://127.0.0.1:8080`), instead of the one the
    /// environment names.
    var proxy: String?
  }

  /// Whether the request was cancelled, and the transfer to wake when it is.
  private final class Control: @unchecked Sendable {
    private let lock = NSLock()
    private var multi: UnsafeMutableRawPointer?
    private var isCancelled = false

    var cancelled: Bool { lock.withLock { isCancelled } }

    /// Whether the transfer may start; from then on, cancelling wakes `multi` at once.
    func attach(_ multi: UnsafeMutableRawPointer) -> Bool {
      lock.withLock {
        self.multi = multi
        return !isCancelled
      }
    }

    // NB: under the lock, so that `cancel` never wakes a handle being cleaned up.
    func detach() { lock.withLock { multi = nil } }

    func cancel() {
      lock.withLock {
        isCancelled = true
        if let multi { curl_multi_wakeup(multi) }
      }
    }
  }

  init(_ request: HTTPRequest, url: HTTPURL, options: Options = Options()) {
    self.request = request
    self.url = url
    self.options = options
  }

  /// The answer, read on a thread of its own; cancelling the task stops the transfer.
  func response() async throws -> HTTPResponse {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
        Thread.detachNewThread { [self] in
          continuation.resume(with: Result { try run() })
        }
      }
    } onCancel: {
      control.cancel()
    }
  }

  private func fail(_ reason: String) -> HTTPError { .unreachable(url: request.url, reason: reason) }

  // NB: libcurl's global set-up is not safe to race; done once, before the first transfer.
  private static let started = lunar_curl_start() == CURLE_OK

  private func run() throws -> HTTPResponse {
    guard Self.started else { throw fail("libcurl cannot start") }
    guard let easy = curl_easy_init() else { throw fail("libcurl cannot start a transfer") }
    defer { curl_easy_cleanup(easy) }
    guard let multi = curl_multi_init() else { throw fail("libcurl cannot start a transfer") }
    defer { curl_multi_cleanup(multi) }
    var headerList: UnsafeMutablePointer<curl_slist>?
    for line in headerLines() { headerList = curl_slist_append(headerList, line) }
    defer { curl_slist_free_all(headerList) }
    let receiver = HTTPCurlReceiver(limit: request.maximumResponseBytes, bodyless: request.method == "HEAD")
    try configure(easy, headers: headerList, receiver: Unmanaged.passUnretained(receiver).toOpaque())

    guard control.attach(multi) else { throw CancellationError() }
    defer { control.detach() }
    guard curl_multi_add_handle(multi, easy) == CURLM_OK else { throw fail("libcurl cannot start a transfer") }
    defer { curl_multi_remove_handle(multi, easy) }
    var running: Int32 = 1
    while running > 0 {
      guard curl_multi_perform(multi, &running) == CURLM_OK else { throw fail("libcurl's transfer failed") }
      if control.cancelled { throw CancellationError() }
      if running > 0 { _ = curl_multi_poll(multi, nil, 0, 1000, nil) }
    }
    var result = CURLE_OK
    var queued: Int32 = 0
    while let message = curl_multi_info_read(multi, &queued) {
      if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
    }
    return try withExtendedLifetime(receiver) { try answer(result, receiver: receiver, easy: easy) }
  }

  /// Sets up `easy` for the request (`headers` must outlive the transfer).
  private func configure(
    _ easy: UnsafeMutableRawPointer, headers: UnsafeMutablePointer<curl_slist>?, receiver: UnsafeMutableRawPointer
  ) throws {
    func set(_ code: CURLcode) throws {
      guard code == CURLE_OK else { throw fail("libcurl refuses the request: \(String(cString: curl_easy_strerror(code)))") }
    }
    try set(lunar_curl_set_pointer(easy, CURLOPT_URL, url.description))
    try set(lunar_curl_only_http(easy))
    try set(lunar_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0))
    // NB: libcurl's own signal handling would race the host's other threads.
    try set(lunar_curl_set_long(easy, CURLOPT_NOSIGNAL, 1))
    try set(lunar_curl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1))
    let milliseconds = max(1, Int(request.timeout * 1000))
    try set(lunar_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds))
    try set(lunar_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds))
    if let certificateAuthorities = options.certificateAuthorities {
      try set(lunar_curl_set_pointer(easy, CURLOPT_CAINFO, certificateAuthorities))
    }
    if let proxy = options.proxy {
      try set(lunar_curl_set_pointer(easy, CURLOPT_PROXY, proxy))
      try set(lunar_curl_set_pointer(easy, CURLOPT_NOPROXY, ""))
    }

    switch (request.method, request.body) {
    case ("HEAD", _): try set(lunar_curl_set_long(easy, CURLOPT_NOBODY, 1))
    case ("GET", nil): try set(lunar_curl_set_long(easy, CURLOPT_HTTPGET, 1))
    case let (method, body):
      if let body {
        try set(lunar_curl_set_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        // NB: copied, since the body's array does not outlive this call; `[0]` stands for an empty body.
        try set((body.isEmpty ? [0] : body).withUnsafeBytes { lunar_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
      }
      try set(lunar_curl_set_pointer(easy, CURLOPT_CUSTOMREQUEST, method))
    }

    try set(lunar_curl_set_pointer(easy, CURLOPT_HEADERDATA, receiver))
    try set(lunar_curl_set_write(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
      let line = UnsafeRawBufferPointer(start: data, count: size * count)
      let receiver = Unmanaged<HTTPCurlReceiver>.fromOpaque(context!).takeUnretainedValue()
      return receiver.header(line) ? size * count : 0
    })
    try set(lunar_curl_set_pointer(easy, CURLOPT_WRITEDATA, receiver))
    try set(lunar_curl_set_write(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
      let piece = UnsafeRawBufferPointer(start: data, count: size * count)
      let receiver = Unmanaged<HTTPCurlReceiver>.fromOpaque(context!).takeUnretainedValue()
      return receiver.body(piece) ? size * count : 0
    })
    try set(lunar_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headers))
  }

  /// The request's headers as libcurl takes them, and what libcurl would add unasked removed.
  private func headerLines() -> [String] {
    let given = Set(request.headers.keys.map { $0.lowercased() })
    // NB: `Name;` is libcurl's way of sending a header with an empty value (`Name:` removes it).
    var lines = request.headers.sorted { $0.key < $1.key }.map { $0.value.isEmpty ? "\($0.key);" : "\($0.key): \($0.value)" }
    if !given.contains("expect") { lines.append("Expect:") }
    if request.body != nil, !given.contains("content-type") { lines.append("Content-Type:") }
    return lines
  }

  /// The answer a finished transfer got, or the error saying why there is none.
  private func answer(_ result: CURLcode, receiver: HTTPCurlReceiver, easy: UnsafeMutableRawPointer) throws -> HTTPResponse {
    switch receiver.refusal {
    case .tooLarge: throw HTTPError.responseTooLarge(url: request.url, limit: request.maximumResponseBytes)
    case .headTooLong: throw fail("the answer's head is longer than \(HTTPCurlReceiver.maximumHeadBytes) bytes")
    case nil: break
    }
    switch result {
    case CURLE_OK:
      guard receiver.status > 0 else { throw fail("the answer is not HTTP") }
      return HTTPResponse(status: receiver.status, headers: receiver.headers, body: receiver.body)
    case CURLE_OPERATION_TIMEDOUT:
      throw HTTPError.timedOut(url: request.url, seconds: request.timeout)
    case CURLE_COULDNT_RESOLVE_HOST:
      throw fail("the host name does not resolve")
    case CURLE_COULDNT_RESOLVE_PROXY:
      throw fail("the proxy's host name does not resolve")
    case CURLE_COULDNT_CONNECT:
      var failure = 0
      _ = lunar_curl_get_long(easy, CURLINFO_OS_ERRNO, &failure)
      throw fail(failure == 0 || failure == Int(ECONNREFUSED) ? "the connection was refused" : String(cString: strerror(Int32(failure))))
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
      throw fail("the secure connection failed (\(String(cString: curl_easy_strerror(result))))")
    case CURLE_GOT_NOTHING, CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL:
      throw fail("the answer is not HTTP")
    case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR:
      throw fail("the connection closed before the answer ended")
    case CURLE_SEND_ERROR:
      throw fail("the connection was closed while sending")
    default:
      throw fail(String(cString: curl_easy_strerror(result)))
    }
  }
}
