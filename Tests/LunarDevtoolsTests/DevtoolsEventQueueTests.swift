#if canImport(Glibc)
  import FlyingSocks
  import Foundation
  import Glibc
  import Testing

  @testable import LunarDevtools

  /// The devtools server's epoll queue watches every socket it is given, including one given the
  /// number of a socket closed while the queue watched it (as a page's live connection closes
  /// when the page reloads, and the next request of the page gets its number).
  @Suite struct DevtoolsEventQueueTests {
    @Test func aSocketGivenTheNumberOfOneClosedWhileWatchedIsWatched() throws {
      var queue = DevtoolsEventQueue()
      try queue.open()
      defer { try? queue.close() }
      let (first, _) = try Self.socketPair()
      try queue.addEvents(.read, for: .init(rawValue: first))
      let (second, peer) = try Self.socketPair()
      defer { Glibc.close(peer) }
      // NB: the first socket closed while watched (the kernel drops its registration; the queue
      //     is not told), and a new one under its number, as the next connection accepted gets
      //     it: at once, so that no other test's file takes the number meanwhile.
      #expect(dup2(second, first) == first)
      Glibc.close(second)
      defer { Glibc.close(first) }
      try queue.addEvents(.read, for: .init(rawValue: first))
      #expect(Glibc.write(peer, "x", 1) == 1)

      // NB: a queue that left it unwatched would wait forever: a watchdog stops it after 10 s.
      let stopper = queue
      let (finished, watchdogDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
      Thread {
        if finished.wait(timeout: .now() + 10) == .timedOut {
          var stopping = stopper
          try? stopping.stop()
        }
        watchdogDone.signal()
      }.start()
      let waited = Result { try queue.getNotifications() }
      finished.signal()
      watchdogDone.wait()
      #expect(try waited.get() == [EventNotification(file: .init(rawValue: first), events: [.read], errors: [])])
    }

    @Test func removingTheEventsOfAClosedSocketForgetsIt() throws {
      var queue = DevtoolsEventQueue()
      try queue.open()
      defer { try? queue.close() }
      let (socket, peer) = try Self.socketPair()
      defer { Glibc.close(peer) }
      try queue.addEvents(.read, for: .init(rawValue: socket))
      Glibc.close(socket)
      // NB: the kernel dropped it already: not an error, as FlyingSocks' own queue makes it.
      try queue.removeEvents(.read, for: .init(rawValue: socket))
    }

    private static func socketPair() throws -> (Int32, Int32) {
      var pair: [Int32] = [0, 0]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { throw SocketError.makeFailed("socketpair") }
      return (pair[0], pair[1])
    }
  }
#endif
