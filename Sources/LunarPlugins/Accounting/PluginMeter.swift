import Foundation
import LuaFeatures

/// Counts one plugin's work as its reducers do it: actions, the time each took, errors.
///
/// NB: `@unchecked Sendable` and not actor-isolated: it is read and written only on the main
///     actor, where every reducer of a plugin runs, and the hot path (one action) must not pay for
///     an isolation check. ``PluginHost`` reads it there too.
final class PluginMeter: @unchecked Sendable {
  /// Actions reduced, from every session of the plugin.
  private(set) var actions = 0
  /// Errors the plugin's features reported (reducers, effects, views, migrations).
  private(set) var errors = 0
  /// The latest of them.
  private(set) var lastError: LuaFeatureError?
  /// Set when the plugin is unloaded: its reducers then refuse every action.
  var isUnloaded = false
  /// Actions refused because the plugin was unloaded.
  private(set) var refused = 0

  /// The latest durations, in nanoseconds: a ring of `window` samples.
  private var samples: [UInt64]
  private var nextSample = 0
  private var sampleCount = 0
  static let window = 1024

  init() {
    samples = [UInt64](repeating: 0, count: Self.window)
  }

  /// Records one action that took `nanoseconds`.
  @inline(__always)
  func record(_ nanoseconds: UInt64) {
    actions &+= 1
    samples[nextSample] = nanoseconds
    nextSample = nextSample == Self.window - 1 ? 0 : nextSample + 1
    if sampleCount < Self.window { sampleCount += 1 }
  }

  func refuse() {
    refused += 1
  }

  func failed(_ error: LuaFeatureError) {
    errors += 1
    lastError = error
  }

  /// The median and 99th percentile of the latest durations, `nil` before the first action.
  func percentiles() -> (p50: Duration, p99: Duration)? {
    guard sampleCount > 0 else { return nil }
    let sorted = samples[..<sampleCount].sorted()
    func at(_ fraction: Double) -> Duration {
      let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
      return .nanoseconds(Int64(sorted[max(0, index)]))
    }
    return (at(0.5), at(0.99))
  }

  /// A monotonic clock in nanoseconds.
  ///
  /// NB: not the thread's CPU clock: reading that is a system call (0.8 µs here, as much as a
  ///     small action), while the monotonic clock is read in user space (30 ns). A reducer call
  ///     runs on one thread without waiting, so its wall time is its CPU time unless the system
  ///     preempted it.
  @inline(__always)
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
