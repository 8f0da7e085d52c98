#if canImport(Glibc)
  import Glibc

  /// A Linux inotify instance watching folders: the folder, not the file, so that an editor's
  /// save by rename (write a temporary file, rename it over the original) is seen too.
  ///
  /// Not thread-safe by itself: ``FileWatcher`` serialises calls behind its lock, except
  /// ``waitReadable(timeout:)``, which its own thread calls without it.
  final class Inotify {
    /// One event: the folder it happened in, the file name, and what happened.
    struct Event {
      var folder: String
      var name: String
      /// The writer may still be writing (`IN_MODIFY`, `IN_CREATE`): wait for its close.
      var unfinished: Bool
    }

    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]

    static let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM)
      | UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB)

    /// A new instance, or `nil` when inotify is unavailable (no kernel support, or out of instances).
    init?() {
      let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      self.descriptor = descriptor
    }

    deinit {
      close(descriptor)
    }

    /// Watches exactly `wanted` folders: adds the new ones, drops the others. Returns `false` when
    /// a folder could not be watched.
    func watch(folders wanted: Set<String>) -> Bool {
      var ok = true
      for folder in wanted where watches[folder] == nil {
        let watch = inotify_add_watch(descriptor, folder, Self.mask)
        if watch < 0 {
          ok = false
          continue
        }
        watches[folder] = watch
        folders[watch] = folder
      }
      for (folder, watch) in watches where !wanted.contains(folder) {
        inotify_rm_watch(descriptor, watch)
        watches[folder] = nil
        folders[watch] = nil
      }
      return ok
    }

    /// Waits up to `timeout` until events can be read. Touches no shared state: safe to call
    /// without the watcher's lock.
    func waitReadable(timeout: Duration) -> Bool {
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let (seconds, attoseconds) = timeout.components
      let milliseconds = Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      return poll(&request, 1, milliseconds) > 0
    }

    /// The events ready now (empty when none).
    func readEvents() -> [Event] {
      var events: [Event] = []
      var buffer = [UInt8](repeating: 0, count: 16 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        var offset = 0
        // NB: each record is `struct inotify_event` (wd, mask, cookie, len) followed by `len`
        //     bytes of NUL-padded name; Swift cannot import the flexible array, so read by hand.
        while offset + 16 <= count {
          let (watch, mask, length) = buffer.withUnsafeBytes { raw in
            (
              raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
              raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
              Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            )
          }
          let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
          offset += 16 + length
          guard let folder = folders[watch], !nameBytes.isEmpty else { continue }
          let finishing = mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM) != 0
          let unfinished = !finishing && mask & UInt32(IN_MODIFY | IN_CREATE) != 0
          events.append(Event(folder: folder, name: String(decoding: nameBytes, as: UTF8.self), unfinished: unfinished))
        }
      }
      return events
    }

  }
#endif
