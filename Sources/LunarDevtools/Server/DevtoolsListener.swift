import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// Keeps the devtools server listening: when it stops accepting connections (out of file
/// descriptors: `accept failed: Too many open files`), it says so, closes the connections it
/// held, and listens again on the same port as soon as it can.
///
/// NB: the server library ends its accept loop on the first error `accept` returns; what is left to
/// do is to notice and start a new one.
actor DevtoolsListener {
  private let report: @Sendable (String) -> Void
  private let routes: @Sendable (_ port: UInt16) -> DevtoolsRoutes
  private var server: HTTPServer?
  private var supervisor: Task<Void, Never>?
  private var stopped = false

  init(report: @escaping @Sendable (String) -> Void, routes: @escaping @Sendable (_ port: UInt16) -> DevtoolsRoutes) {
    self.report = report
    self.routes = routes
  }

  /// Listens on `127.0.0.1:port` (a free port for 0); returns the port.
  func listen(port: UInt16) async throws(DevtoolsServerError) -> UInt16 {
    let (server, running, bound) = try await open(port: port)
    self.server = server
    supervisor = Task { await self.supervise(running, port: bound) }
    return bound
  }

  func stop() async {
    stopped = true
    supervisor?.cancel()
    await server?.stop(timeout: 0)
    server = nil
  }

  /// Waits for the server to stop; unless asked to, listens again, retrying for as long as it fails.
  private func supervise(_ first: Task<Void, any Error>, port: UInt16) async {
    var running = first
    while true {
      let result = await running.result
      guard !stopped else { return }
      let reason: String
      switch result {
      case .success: reason = "the server stopped"
      case let .failure(error): reason = DevtoolsServerError.describe(error)
      }
      report("devtools: cannot accept connections (\(reason)); the pages were disconnected, listening again on port \(port) as soon as it can")
      var delay = Duration.milliseconds(50)
      while true {
        try? await Task.sleep(for: delay)
        guard !stopped else { return }
        do {
          let (server, next, _) = try await open(port: port)
          // NB: stop() may have come while it opened: that server must not outlive it.
          guard !stopped else {
            await server.stop(timeout: 0)
            return
          }
          self.server = server
          running = next
          report("devtools: accepting connections again")
          break
        } catch {
          delay = min(delay * 2, .seconds(2))
        }
      }
    }
  }

  /// A new server listening on `port`, its run, and the port it listens on.
  private func open(port: UInt16) async throws(DevtoolsServerError) -> (HTTPServer, Task<Void, any Error>, UInt16) {
    let address: sockaddr_in
    do {
      address = try .inet(ip4: "127.0.0.1", port: port)
    } catch {
      throw DevtoolsServerError(message: "cannot listen on 127.0.0.1:\(port): \(error)")
    }
    // NB: no logger: the server must not write to standard output, which carries the run's events.
    let server = HTTPServer(address: address, timeout: 60, pool: Self.pool(), logger: .disabled)
    let outcome = RunOutcome()
    let running = Task {
      do {
        try await server.run()
        outcome.end(nil)
      } catch {
        outcome.end(DevtoolsServerError.describe(error))
        throw error
      }
    }
    // NB: the library's wait does not end when listening fails; watching the run does.
    let deadline = ContinuousClock.now + .seconds(5)
    while await !server.isListening {
      let ended = outcome.ended
      if ended.ended || ContinuousClock.now > deadline {
        running.cancel()
        let reason = ended.reason ?? "it did not start listening"
        throw DevtoolsServerError(message: "cannot listen on 127.0.0.1:\(port): \(reason)")
      }
      try? await Task.sleep(for: .milliseconds(5))
    }
    guard case let .ip4(_, bound)? = await server.listeningAddress else {
      running.cancel()
      throw DevtoolsServerError(message: "cannot listen on 127.0.0.1:\(port)")
    }
    await server.appendRoute("*", to: routes(bound))
    return (server, running, bound)
  }
}

extension DevtoolsListener {
  /// What the server's sockets wait on: on Linux, an epoll queue that registers every socket it is
  /// given (see ``DevtoolsEventQueue``); elsewhere, the library's own.
  static func pool() -> some AsyncSocketPool {
    #if canImport(CSystemLinux)
      SocketPool(queue: DevtoolsEventQueue())
    #else
      HTTPServer.defaultPool()
    #endif
  }
}

/// Whether a server's run ended, and why.
private final class RunOutcome: Sendable {
  private let state = Mutex<(ended: Bool, reason: String?)>((false, nil))

  var ended: (ended: Bool, reason: String?) { state.withLock { $0 } }

  func end(_ reason: String?) { state.withLock { $0 = (true, reason) } }
}
