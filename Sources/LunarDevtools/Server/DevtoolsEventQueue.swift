import FlyingSocks

#if canImport(CSystemLinux)
  import CSystemLinux
  import Glibc

  /// What the devtools server's sockets wait for, on Linux's epoll: FlyingSocks' own epoll queue,
  /// except that every registration reaches the kernel, whatever the queue recorded before.
  ///
  /// FlyingSocks' queue records what each descriptor is registered for, and skips `epoll_ctl` when
  /// asked for what the record already holds. A socket closed while a read on it was pending (a
  /// page's live connection, when the page reloads) keeps its record: the kernel drops the
  /// registration on `close`, and the queue's removal comes after it and fails. The next
  /// connection given the same descriptor number then waits for a read that was never registered,
  /// and its request is never read: a reload of the page stalled until the browser gave up on it.
  /// Here a registration is always told to the kernel, and a removal that finds the descriptor
  /// already gone only forgets it.
  struct DevtoolsEventQueue: EventQueue {
    private var file: Int32 = -1
    /// Written by ``stop()`` to end a wait for events.
    private var canary: Int32 = -1
    private var stopped = false
    private var registered: [Int32: Socket.Events] = [:]
    private let eventsLimit: Int

    init(eventsLimit: Int = 20) {
      self.eventsLimit = eventsLimit
    }

    mutating func open() throws {
      registered = [:]
      stopped = false
      file = epoll_create1(Int32(EPOLL_CLOEXEC))
      guard file >= 0 else { throw SocketError.makeFailed("epoll_create1") }
      canary = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
      guard canary >= 0 else { throw SocketError.makeFailed("eventfd") }
      var event = epoll_event()
      event.events = EPOLLIN.rawValue | EPOLLET.rawValue
      event.data.fd = canary
      guard epoll_ctl(file, EPOLL_CTL_ADD, canary, &event) != -1 else { throw SocketError.makeFailed("epoll_ctl") }
    }

    mutating func stop() throws {
      registered = [:]
      guard !stopped, canary >= 0 else { throw SocketError.disconnected }
      stopped = true
      eventfd_write(canary, 1)
    }

    mutating func close() throws {
      guard file >= 0 else { throw SocketError.disconnected }
      _ = Glibc.close(file)
      file = -1
      if canary >= 0 { _ = Glibc.close(canary) }
      canary = -1
    }

    mutating func addEvents(_ events: Socket.Events, for socket: Socket.FileDescriptor) throws {
      try setEvents(events.union(registered[socket.rawValue] ?? []), for: socket.rawValue)
    }

    mutating func removeEvents(_ events: Socket.Events, for socket: Socket.FileDescriptor) throws {
      try setEvents((registered[socket.rawValue] ?? []).subtracting(events), for: socket.rawValue)
    }

    private mutating func setEvents(_ events: Socket.Events, for socket: Int32) throws {
      if events.isEmpty {
        // NB: a socket closed already was dropped by the kernel: there is nothing left to remove.
        guard registered.removeValue(forKey: socket) != nil else { return }
        if epoll_ctl(file, EPOLL_CTL_DEL, socket, nil) == -1, errno != ENOENT, errno != EBADF {
          throw SocketError.makeFailed("epoll_ctl EPOLL_CTL_DEL")
        }
        return
      }
      var event = epoll_event()
      event.events = (events.contains(.read) ? EPOLLIN.rawValue : 0) | (events.contains(.write) ? EPOLLOUT.rawValue : 0) | EPOLLET.rawValue
      event.data.fd = socket
      // NB: told to the kernel even when the record says it knows: the record may be of a closed
      //     socket whose number this one was given.
      var result = epoll_ctl(file, registered[socket] == nil ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, &event)
      if result == -1, errno == ENOENT {
        result = epoll_ctl(file, EPOLL_CTL_ADD, socket, &event)
      } else if result == -1, errno == EEXIST {
        result = epoll_ctl(file, EPOLL_CTL_MOD, socket, &event)
      }
      guard result != -1 else {
        registered[socket] = nil
        throw SocketError.makeFailed("epoll_ctl")
      }
      registered[socket] = events
    }

    func getNotifications() throws -> [EventNotification] {
      guard !stopped else { throw SocketError.disconnected }
      var events = [epoll_event](repeating: epoll_event(), count: eventsLimit)
      let count = epoll_wait(file, &events, Int32(eventsLimit), -1)
      guard count >= 0 else {
        // NB: a signal is not a failure: no events, and the pool waits again.
        if errno == EINTR { return [] }
        throw SocketError.makeFailed("epoll_wait")
      }
      return try events.prefix(Int(count)).map { event in
        if event.data.fd == canary { throw SocketError.disconnected }
        return notification(for: event)
      }
    }

    private func notification(for event: epoll_event) -> EventNotification {
      let flags = event.events
      var events = Socket.Events()
      if flags & EPOLLIN.rawValue != 0 { events.insert(.read) }
      if flags & EPOLLOUT.rawValue != 0 { events.insert(.write) }
      var errors = Set<EventNotification.Error>()
      if flags & EPOLLIN.rawValue == 0, flags & (EPOLLHUP.rawValue | EPOLLRDHUP.rawValue) != 0 { errors.insert(.endOfFile) }
      if flags & (EPOLLERR.rawValue | EPOLLPRI.rawValue) != 0 { errors.insert(.error) }
      // NB: a hang-up alone wakes whoever waits on the socket, for whatever they wait for.
      if events.isEmpty, let waited = registered[event.data.fd] { events = waited }
      return EventNotification(file: Socket.FileDescriptor(rawValue: event.data.fd), events: events, errors: errors)
    }
  }
#endif
