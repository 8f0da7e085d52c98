import Foundation
import TestSupport

/// An HTTP (or HTTPS) server on 127.0.0.1 for tests of `deps.http`: python3's http.server with a
/// handler that answers
/// - `/echo…`: 200, the request as JSON (`method`, `path`, `headers` in lower case, `body`);
/// - `/status/<code>`: that status, body `status <code>`;
/// - `/slow`: after 5 seconds, 200;
/// - `/binary`: 200, the bytes 0…255;
/// - `/redirect`: 302 to `/echo?redirected=1`;
/// - `/interim`: 103 with an `X-Early` header, then 200, body `after`;
/// - `/longhead`: 200 with 100 KB of headers;
/// - `/big/<bytes>`: 200 with a `Content-Length` of that many bytes, then the bytes;
/// - `/stream/<bytes>`: 200 without a length, that many bytes, then the connection closes.
/// - `/chunked/<bytes>`: 200 in chunks of at most 64 KiB, that many bytes in all.
///   The three log `SENT <bytes written>` once they stop (done, or the client hung up).
///
/// It also answers as a proxy would (a request for `http://…/echo` is answered as `/echo`).
/// Every request is logged (`requests()`) as asked for, so a test can tell whether the network
/// was used, and whether through a proxy.
final class LocalHTTPServer: @unchecked Sendable {
  static let python = "/usr/bin/python3"
  static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

  let url: String
  /// The PEM file of the server's certificate, for a server speaking `https`.
  let certificate: URL?
  private let process: Process
  private let lock = NSLock()
  private var log = ""

  static let script = #"""
    import http.server, json, sys, time
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def answer(self, status, body, kind="text/plain"):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Server", "local")
            self.end_headers()
            self.wfile.write(body)
        def handle_any(self):
            # NB: as a proxy, the server is asked for an absolute URL and answers its path.
            path = "/" + (self.path.split("/", 3) + [""])[3] if self.path.startswith("http://") else self.path
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            sys.stderr.write("REQUEST %s %s\n" % (self.command, self.path)); sys.stderr.flush()
            if path.startswith("/echo"):
                echo = {"method": self.command, "path": path, "body": body.decode("utf-8", "replace"),
                        "headers": {k.lower(): v for k, v in self.headers.items()}}
                self.answer(200, json.dumps(echo, sort_keys=True).encode(), "application/json")
            elif path.startswith("/status/"):
                code = int(path.split("/")[2])
                self.answer(code, ("status %d" % code).encode())
            elif path == "/slow":
                time.sleep(5)
                self.answer(200, b"late")
            elif path == "/redirect":
                self.send_response(302)
                self.send_header("Location", "/echo?redirected=1")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path.split("/")[1] in ("big", "stream", "chunked"):
                size, chunked = int(path.split("/")[2]), path.startswith("/chunked/")
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                if chunked:
                    self.send_header("Transfer-Encoding", "chunked")
                elif path.startswith("/big/"):
                    self.send_header("Content-Length", str(size))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                chunk, sent = b"x" * 65536, 0
                try:
                    while sent < size:
                        piece = chunk[:size - sent]
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                        sent += len(piece)
                    if chunked:
                        self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except OSError:
                    self.close_connection = True
                sys.stderr.write("SENT %d\n" % sent); sys.stderr.flush()
            elif path == "/interim":
                self.wfile.write(b"HTTP/1.1 103 Early Hints\r\nX-Early: 1\r\n\r\n")
                self.answer(200, b"after")
            elif path == "/longhead":
                self.send_response(200)
                for n in range(100):
                    self.send_header("X-Filler-%d" % n, "y" * 1000)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path == "/binary":
                self.answer(200, bytes(range(256)), "application/octet-stream")
            else:
                self.answer(404, b"no such path")
        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any
        def log_message(self, *args): pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if len(sys.argv) > 2:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()
    """#

  /// With `tls`, the server speaks `https` with a certificate for 127.0.0.1 made for it, which
  /// only a client trusting ``certificate`` accepts.
  init(tls: Bool = false) throws {
    var arguments = ["-u", "-c", Self.script]
    if tls {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-tls-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let certificate = folder.appendingPathComponent("certificate.pem")
      let key = folder.appendingPathComponent("key.pem")
      try Self.makeCertificate(certificate, key: key)
      self.certificate = certificate
      arguments += [certificate.path, key.path]
    } else {
      certificate = nil
    }
    process = Process()
    process.executableURL = URL(fileURLWithPath: Self.python)
    process.arguments = arguments
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var banner = ""
    while !banner.contains("\n") {
      let chunk = stdout.fileHandleForReading.nextChunk()
      if chunk.isEmpty { break }
      banner += String(decoding: chunk, as: UTF8.self)
    }
    guard let port = banner.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
      process.terminate()
      throw ServerError(message: "the local HTTP server did not start: \(banner)")
    }
    url = "\(tls ? "https" : "http")://127.0.0.1:\(port)"
    Thread.detachNewThread { [self] in
      while true {
        let chunk = stderr.fileHandleForReading.nextChunk()
        if chunk.isEmpty { break }
        lock.withLock { log += String(decoding: chunk, as: UTF8.self) }
      }
    }
  }

  /// The requests served so far, as `METHOD /path`.
  func requests() -> [String] {
    lock.withLock { log }.split(separator: "\n").compactMap { line in
      line.hasPrefix("REQUEST ") ? String(line.dropFirst(8)) : nil
    }
  }

  /// The requests served so far, once at least `count` have been logged and the log has been
  /// quiet for a tenth of a second (waiting up to `timeout` seconds): the log is read on a thread
  /// of its own, so a request the server saw may not be in ``requests()`` yet.
  func requests(atLeast count: Int, timeout: Double = 5) -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var seen = requests()
    while Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      let now = requests()
      if now.count >= count && now == seen { return now }
      seen = now
    }
    return seen
  }

  /// The bytes a `/big` or `/stream` answer wrote before it stopped, once it has (waiting up to
  /// `timeout` seconds); `nil` if none has stopped.
  func bytesSent(timeout: Double = 10) -> Int? {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      let sent = lock.withLock { log }.split(separator: "\n").compactMap { line in
        line.hasPrefix("SENT ") ? Int(line.dropFirst(5)) : nil
      }
      if let last = sent.last { return last }
      Thread.sleep(forTimeInterval: 0.05)
    } while Date() < deadline
    return nil
  }

  func stop() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    if let certificate { try? FileManager.default.removeItem(at: certificate.deletingLastPathComponent()) }
  }

  static let openssl = "/usr/bin/openssl"

  /// A self-signed certificate for 127.0.0.1, valid for a day, and its key.
  static func makeCertificate(_ certificate: URL, key: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: openssl)
    process.arguments = [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
      "-keyout", key.path, "-out", certificate.path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ServerError(message: "openssl could not make a certificate (exit \(process.terminationStatus))")
    }
  }

  struct ServerError: Error { let message: String }
}
