import Foundation

/// Watches a set of files and reports, once a burst of writes has settled, which of them now hold
/// different text.
///
/// ```swift
/// let watcher = FileWatcher(files: feature.loadedFiles)
/// for await change in watcher.changes {
///   print("changed:", change.files.map(\.lastPathComponent))
/// }
/// ```
///
/// On Linux it uses inotify on the files' folders (editors often save by writing a temporary file
/// and renaming it over the original, which a watch on the file itself would miss); elsewhere, or
/// when inotify is unavailable, it polls size, modification time and a hash of the content.
///
/// ## Debouncing
///
/// Editors write in several steps (truncate, write, write, close, or write-then-rename). A change
/// is reported only after ``quietPeriod`` without further events; while a writer still has a file
/// open (inotify saw it modified but not closed) the wait stretches to ``unfinishedWriteGrace``.
/// A change whose text ends up the same as before (a `touch`) is not reported.
///
/// > Important: A half-written file can still be reported if its writer pauses longer than the
/// > grace period. Callers compile what they read and keep the old version when that fails; the
/// > complete write that follows is reported as another change.
public final class FileWatcher: Sendable {
  /// How changes are noticed.
  public enum Mechanism: Sendable, Equatable {
    /// inotify where available (Linux), polling otherwise.
    case automatic
    /// Reads every watched file each `interval`.
    case polling(interval: Duration)
  }

  /// Files whose text changed.
  public struct Change: Sendable, Equatable {
    /// The changed files (absolute), in the order they are watched.
    public var files: [URL]
  }

  /// One element per settled burst of writes. Ends when the watcher stops.
  public let changes: AsyncStream<Change>
  /// How long the files must stay quiet before a change is reported.
  public let quietPeriod: Duration
  /// How long to wait, at most, for a writer that has not closed its file yet.
  public let unfinishedWriteGrace: Duration
  /// Whether inotify is in use (`false`: polling).
  public let usesInotify: Bool

  private let core: WatcherCore

  /// Starts watching `files`.
  ///
  /// - Parameters:
  ///   - files: The files to watch (see ``LuaFeature/loadedFiles``).
  ///   - quietPeriod: The quiet time that ends a burst of writes.
  ///   - unfinishedWriteGrace: The longest wait for a writer that keeps its file open.
  ///   - mechanism: inotify when available, or polling.
  public init(
    files: [URL], quietPeriod: Duration = .milliseconds(25), unfinishedWriteGrace: Duration = .milliseconds(250),
    mechanism: Mechanism = .automatic
  ) {
    let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
    self.changes = stream
    self.quietPeriod = quietPeriod
    self.unfinishedWriteGrace = unfinishedWriteGrace
    let core = WatcherCore(continuation: continuation, mechanism: mechanism)
    self.core = core
    self.usesInotify = core.usesInotify
    core.watch(files)
    let quiet = quietPeriod
    let grace = unfinishedWriteGrace
    let thread = Thread { core.run(quiet: quiet, grace: grace) }
    thread.name = "lunar.FileWatcher"
    thread.start()
  }

  /// Watches `files` from now on instead of the current set (after a reload that `require`d other
  /// modules). Files already watched keep their last reported text as the reference.
  public func watch(_ files: [URL]) {
    core.watch(files)
  }

  /// The files watched now.
  public var files: [URL] { core.files }

  /// Stops watching and ends ``changes``.
  public func stop() {
    core.stop()
  }

  deinit {
    core.stop()
  }
}

/// The watcher's state and its thread's loop.
///
/// NB: `@unchecked Sendable`: every mutable property is read and written under `lock`; the loop's
///     own locals live on its thread.
private final class WatcherCore: @unchecked Sendable {
  private let lock = NSLock()
  private let continuation: AsyncStream<FileWatcher.Change>.Continuation
  private let pollingInterval: Duration
  private var order: [String] = []
  private var reference: [String: FileFingerprint?] = [:]
  private var stopped = false
  #if canImport(Glibc)
    private let inotify: Inotify?
  #endif

  init(continuation: AsyncStream<FileWatcher.Change>.Continuation, mechanism: FileWatcher.Mechanism) {
    self.continuation = continuation
    switch mechanism {
    case .automatic:
      pollingInterval = .milliseconds(50)
      #if canImport(Glibc)
        inotify = Inotify()
      #endif
    case let .polling(interval):
      pollingInterval = interval
      #if canImport(Glibc)
        inotify = nil
      #endif
    }
  }

  var usesInotify: Bool {
    #if canImport(Glibc)
      inotify != nil
    #else
      false
    #endif
  }

  var files: [URL] {
    lock.withLock { order.map { URL(fileURLWithPath: $0) } }
  }

  func watch(_ urls: [URL]) {
    let paths = urls.map { $0.standardizedFileURL.path }
    lock.withLock {
      var seen = Set<String>()
      order = paths.filter { seen.insert($0).inserted }
      var kept: [String: FileFingerprint?] = [:]
      for path in order { kept[path] = reference[path] ?? FileFingerprint(path: path) }
      reference = kept
      #if canImport(Glibc)
        if let inotify {
          _ = inotify.watch(folders: Set(order.map { ($0 as NSString).deletingLastPathComponent }))
        }
      #endif
    }
  }

  func stop() {
    let wasStopped = lock.withLock {
      defer { stopped = true }
      return stopped
    }
    if !wasStopped { continuation.finish() }
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  /// The loop: wait for signs of writing, let the burst settle, report what changed.
  func run(quiet: Duration, grace: Duration) {
    let clock = ContinuousClock()
    var deadline: ContinuousClock.Instant?
    var lastSeen: [String: FileFingerprint?] = [:]
    var unfinished = Set<String>()
    while !isStopped {
      let idle = Duration.milliseconds(100)
      let wait = deadline.map { max(.zero, min(idle, $0 - clock.now)) } ?? idle
      #if canImport(Glibc)
        if let inotify {
          var touched = false
          if inotify.waitReadable(timeout: wait) {
            lock.withLock {
              for event in inotify.readEvents() {
                let path = event.folder + "/" + event.name
                guard reference.keys.contains(path) else { continue }
                touched = true
                if event.unfinished { unfinished.insert(path) } else { unfinished.remove(path) }
              }
            }
          }
          if touched { deadline = clock.now.advanced(by: unfinished.isEmpty ? quiet : grace) }
          if let due = deadline, clock.now >= due {
            deadline = nil
            unfinished.removeAll()
            report()
          }
          continue
        }
      #endif
      Thread.sleep(forTimeInterval: Self.seconds(min(wait, pollingInterval)))
      let current = lock.withLock { order.map { ($0, FileFingerprint(path: $0)) } }
      let currentMap = Dictionary(current, uniquingKeysWith: { first, _ in first })
      if currentMap != lastSeen {
        lastSeen = currentMap
        deadline = clock.now.advanced(by: max(quiet, pollingInterval))
      }
      if let due = deadline, clock.now >= due {
        deadline = nil
        report()
      }
    }
  }

  /// Compares every watched file with its reference text; reports and records those that differ.
  private func report() {
    let changed: [URL] = lock.withLock {
      var changed: [URL] = []
      for path in order {
        let now = FileFingerprint(path: path)
        let before = reference[path] ?? nil
        if !now.sameText(as: before) {
          changed.append(URL(fileURLWithPath: path))
          reference[path] = now
        }
      }
      return changed
    }
    if !changed.isEmpty, !isStopped { continuation.yield(FileWatcher.Change(files: changed)) }
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
