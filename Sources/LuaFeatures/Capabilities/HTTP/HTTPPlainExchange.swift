import ConcurrencyExtras
import Foundation
#if canImport(Glibc)
  import Glibc
#endif

/// One `http://` request over a socket of its own, read with a bound: the live transport's way
/// for plain HTTP, where an answer can arrive faster than a session's delegate hears of it (a
/// server on the same machine). The body is read as it arrives and the read stops as soon as it
/// passes the request's limit, so the host never holds much more than the limit.
final class HTTPPlainExchange: Sendable {
  private let request: HTTPRequest
  private let url: HTTPURL
  private let cancelled = LockIsolated(false)

  /// The most bytes of a response's status line and headers.
  static let maximumHeadBytes = 64 << 10

  init(_ request: HTTPRequest, url: HTTPURL) {
    self.request = request
    self.url = url
  }

  /// The answer, read on a thread of its own; cancelling the task closes the connection.
  func response() async throws -> HTTPResponse {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
        Thread.detachNewThread { [self] in
          continuation.resume(with: Result { try run() })
        }
      }
    } onCancel: {
      cancelled.setValue(true)
    }
  }

  private func run() throws -> HTTPResponse {
    let deadline = Date().timeIntervalSince1970 + request.timeout
    let socket = try openConnection(deadline: deadline)
    defer { close(socket) }
    try write(head() + (request.body ?? []), to: socket, deadline: deadline)
    var reader = Reader(socket: socket, deadline: deadline, exchange: self)
    var (status, headers) = try readHead(&reader)
    // NB: an interim answer (100 Continue, 103 Early Hints) precedes the real one.
    while status / 100 == 1 && status != 101 { (status, headers) = try readHead(&reader) }
    let bodyless = request.method == "HEAD" || status / 100 == 1 || status == 204 || status == 304
    let body = bodyless ? [] : try readBody(&reader, headers: headers)
    return HTTPResponse(status: status, headers: headers, body: body)
  }

  private func head() -> [UInt8] {
    var target = url.rest.prefix { $0 != "#" }
    if !target.hasPrefix("/") { target = "/" + target }
    var text = "\(request.method) \(target) HTTP/1.1\r\nHost: \(url.authority)\r\n"
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if let body = request.body { text += "Content-Length: \(body.count)\r\n" }
    text += "Connection: close\r\n\r\n"
    return Array(text.utf8)
  }

  fileprivate func fail(_ reason: String) -> HTTPError { .unreachable(url: request.url, reason: reason) }
  fileprivate var timedOut: HTTPError { .timedOut(url: request.url, seconds: request.timeout) }
  fileprivate var tooLarge: HTTPError { .responseTooLarge(url: request.url, limit: request.maximumResponseBytes) }

  /// Waits until `socket` is ready for `events`, checking for cancellation and the deadline.
  fileprivate func wait(_ socket: Int32, for events: Int16, deadline: Double) throws {
    while true {
      if cancelled.value { throw CancellationError() }
      let left = deadline - Date().timeIntervalSince1970
      if left <= 0 { throw timedOut }
      var entry = pollfd(fd: socket, events: events, revents: 0)
      // NB: short waits, so that a cancelled request stops within a tenth of a second.
      let ready = poll(&entry, 1, Int32(min(left, 0.1) * 1000) + 1)
      if ready > 0 { return }
      if ready < 0 && errno != EINTR { throw fail(String(cString: strerror(errno))) }
    }
  }

  private func openConnection(deadline: Double) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let host: String
    switch url.host {
    case let .name(name), let .ipv4(name), let .ipv6(name): host = name
    }
    guard getaddrinfo(host, String(url.port), &hints, &found) == 0, let first = found else {
      throw fail("the host name does not resolve")
    }
    defer { freeaddrinfo(first) }
    var reason = "the connection was refused"
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let address = next {
      next = address.pointee.ai_next
      let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      if fd < 0 { continue }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      var result = connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
      var failure = errno
      if result != 0 && failure == EINPROGRESS {
        do { try wait(fd, for: Int16(POLLOUT), deadline: deadline) } catch {
          close(fd)
          throw error
        }
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
        result = failure == 0 ? 0 : -1
      }
      if result == 0 { return fd }
      if failure != ECONNREFUSED { reason = String(cString: strerror(failure)) }
      close(fd)
    }
    throw fail(reason)
  }

  private func write(_ bytes: [UInt8], to socket: Int32, deadline: Double) throws {
    var offset = 0
    while offset < bytes.count {
      try wait(socket, for: Int16(POLLOUT), deadline: deadline)
      let written = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if written < 0 {
        if errno == EAGAIN || errno == EINTR { continue }
        throw fail("the connection was closed while sending")
      }
      offset += written
    }
  }

  private func readHead(_ reader: inout Reader) throws -> (Int, [String: String]) {
    let head = try reader.line(through: [13, 10, 13, 10], atMost: Self.maximumHeadBytes)
    let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: true)
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."),
      let status = Int(statusLine.split(separator: " ").dropFirst().first ?? ""), (100...999).contains(status)
    else { throw fail("the answer is not HTTP") }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { throw fail("the answer is not HTTP") }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    return (status, headers)
  }

  private func readBody(_ reader: inout Reader, headers: [String: String]) throws -> [UInt8] {
    let limit = request.maximumResponseBytes
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      var body: [UInt8] = []
      while true {
        let sizeLine = try reader.line(through: [13, 10], atMost: 1024)
        let digits = String(decoding: sizeLine, as: UTF8.self).prefix { $0.isHexDigit }
        guard let size = Int(digits, radix: 16) else { throw fail("the answer's chunks are malformed") }
        if size == 0 { return body }
        if size > limit - body.count { throw tooLarge }
        body += try reader.bytes(size)
        _ = try reader.line(through: [13, 10], atMost: 2)
      }
    }
    if let length = headers["content-length"] {
      guard let size = Int(length), size >= 0 else { throw fail("the answer's length is malformed") }
      if size > limit { throw tooLarge }
      return try reader.bytes(size)
    }
    return try reader.rest(atMost: limit)
  }
}

/// Reads a socket through a buffer, never more than asked for past what it returns.
private struct Reader {
  let socket: Int32
  let deadline: Double
  let exchange: HTTPPlainExchange
  var buffer: [UInt8] = []
  var closed = false

  /// Reads once more into the buffer; false at the end of the stream.
  mutating func fill() throws -> Bool {
    if closed { return false }
    try exchange.wait(socket, for: Int16(POLLIN), deadline: deadline)
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    if count < 0 {
      if errno == EAGAIN || errno == EINTR { return true }
      throw exchange.fail("the connection was reset")
    }
    if count == 0 { closed = true; return false }
    buffer += chunk.prefix(count)
    return true
  }

  /// The bytes up to and including `end`, at most `limit` of them.
  mutating func line(through end: [UInt8], atMost limit: Int) throws -> [UInt8] {
    var searched = 0
    while true {
      var start = max(0, searched - end.count + 1)
      while start + end.count <= buffer.count {
        if buffer[start..<start + end.count].elementsEqual(end) {
          let line = Array(buffer[..<(start + end.count)])
          buffer.removeFirst(start + end.count)
          return line
        }
        start += 1
      }
      searched = buffer.count
      if buffer.count > limit { throw exchange.fail("the answer's head is longer than \(limit) bytes") }
      guard try fill() else { throw exchange.fail("the connection closed before the answer ended") }
    }
  }

  /// Exactly `count` bytes.
  mutating func bytes(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw exchange.fail("the connection closed before the answer ended") }
    }
    let bytes = Array(buffer[..<count])
    buffer.removeFirst(count)
    return bytes
  }

  /// Everything until the connection closes, refused once past `limit`.
  mutating func rest(atMost limit: Int) throws -> [UInt8] {
    while try fill() {
      if buffer.count > limit { throw exchange.tooLarge }
    }
    if buffer.count > limit { throw exchange.tooLarge }
    return buffer
  }
}
