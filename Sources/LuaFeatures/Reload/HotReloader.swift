import Foundation
import LuaBridge

/// Hot reload for a running store: watches every file a feature loaded and, when their text
/// changes, loads the new version in a fresh sandbox and swaps it into the store's reducer.
///
/// ```swift
/// let host = try LuaFeatureHost()
/// let counter = try host.load(FeatureLocation(resolving: "examples/counter"))
/// let reducer = counter.reducer()
/// let store = Store(initialState: counter.initialState) { reducer }
/// let reloader = HotReloader(feature: counter, reducer: reducer)
/// Task {
///   for await event in reloader.events {
///     print(event.error.map { "reload failed: \($0)" } ?? "reloaded in \(event.duration)")
///   }
/// }
/// ```
///
/// Each reload is all or nothing: when the new text does not compile, fails while loading, or its
/// `migrate(state)` fails, the running version keeps serving with its state, and the event carries
/// the error with `file:line`. A later save is reported as another change and tried again.
///
/// Reloads run on the main actor, synchronously, so one never interleaves with a reducer call or
/// with an effect's coroutine resuming: it lands between two of them. Effects in flight at that
/// moment keep running the old code (see ``LuaReducer/swap(to:)``).
@MainActor
public final class HotReloader {
  /// The version serving now.
  public private(set) var feature: LuaFeature
  /// The reducer whose version is swapped.
  public let reducer: LuaReducer
  /// One event per reload attempt, in order. Ends when the reloader stops.
  public let events: AsyncStream<HotReloadEvent>
  /// The file watcher, for its settings.
  public let watcher: FileWatcher

  private let continuation: AsyncStream<HotReloadEvent>.Continuation
  private var loop: Task<Void, Never>?

  /// Starts watching `feature`'s files and reloading `reducer` when they change.
  ///
  /// - Parameters:
  ///   - feature: The version `reducer` runs now; it must have been loaded from a file.
  ///   - reducer: A reducer made by `feature` (``LuaFeature/reducer(dependencyOverrides:)``), usually
  ///     running in a store.
  ///   - quietPeriod: How long writes must pause before a change is applied.
  ///   - mechanism: inotify where available, or polling.
  public init(
    feature: LuaFeature, reducer: LuaReducer, quietPeriod: Duration = .milliseconds(25),
    mechanism: FileWatcher.Mechanism = .automatic
  ) {
    self.feature = feature
    self.reducer = reducer
    (events, continuation) = AsyncStream<HotReloadEvent>.makeStream(bufferingPolicy: .unbounded)
    let watcher = FileWatcher(files: feature.loadedFiles, quietPeriod: quietPeriod, mechanism: mechanism)
    self.watcher = watcher
    loop = Task { @MainActor [weak self] in
      for await change in watcher.changes {
        guard let self else { return }
        self.continuation.yield(self.reload(changed: change.files))
      }
    }
  }

  isolated deinit {
    loop?.cancel()
    watcher.stop()
    continuation.finish()
  }

  /// Reloads now, whatever the files say: loads the feature afresh and swaps it in.
  ///
  /// The file watcher calls this for each settled change; call it yourself to force a reload.
  /// The returned event is not added to ``events``.
  ///
  /// - Parameter changed: The files that changed, for the event.
  @discardableResult
  public func reload(changed: [URL] = []) -> HotReloadEvent {
    let clock = ContinuousClock()
    let start = clock.now
    do {
      let newer = try feature.host.reload(feature)
      try reducer.swap(to: newer)
      feature = newer
      watcher.watch(newer.loadedFiles)
      return HotReloadEvent(
        feature: newer.name, changedFiles: changed, files: newer.loadedFiles, duration: clock.now - start, error: nil
      )
    } catch {
      // NB: keep watching what the running version loaded, and what changed (a new module that
      //     failed to load is watched, so that fixing it reloads).
      let files = Array(Set(feature.loadedFiles + changed)).sorted { $0.path < $1.path }
      watcher.watch(files)
      return HotReloadEvent(
        feature: feature.name, changedFiles: changed, files: feature.loadedFiles, duration: clock.now - start,
        error: error
      )
    }
  }

  /// Stops watching and ends ``events``.
  public func stop() {
    loop?.cancel()
    loop = nil
    watcher.stop()
    continuation.finish()
  }
}

/// The outcome of one hot reload.
public struct HotReloadEvent: Sendable {
  /// The name of the version serving after the attempt.
  public var feature: String
  /// The files whose change triggered it.
  public var changedFiles: [URL]
  /// The files the serving version loaded (what is watched now).
  public var files: [URL]
  /// From the change being noticed to the new version serving (or the failure).
  public var duration: Duration
  /// Why the reload failed (`.load`: compile or load error; `.migration`: `migrate` failed), with
  /// `file:line`; `nil` when the new version serves.
  public var error: LuaFeatureError?

  /// Whether the new version serves.
  public var succeeded: Bool { error == nil }

  /// ``duration`` in milliseconds.
  public var milliseconds: Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
  }
}
