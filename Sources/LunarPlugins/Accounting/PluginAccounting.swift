/// What one plugin has cost so far, like an add-on profiler shows: read it from
/// ``Plugin/accounting``.
///
/// ```swift
/// let cost = plugin.accounting
/// print("\(cost.actions) actions, p99 \(cost.p99 ?? .zero), \(cost.memoryInUse >> 10) KiB")
/// ```
public struct PluginAccounting: Sendable, Equatable {
  /// Actions its reducers handled, from every session (actions effects sent included).
  public var actions: Int
  /// The median time of one action (the reducer's call, on the main actor) over the latest 1024
  /// actions; `nil` before the first.
  public var p50: Duration?
  /// The 99th percentile of the same.
  public var p99: Duration?
  /// Effects running now, in every session.
  public var effectsRunning: Int
  /// Bytes its VM holds now (what its memory limit caps).
  public var memoryInUse: Int
  /// The bytes its VM may hold (its grants' memory limit), or `nil` without a limit.
  public var memoryLimit: Int?
  /// Errors its features reported: reducers, effects, views, migrations.
  public var errors: Int
  /// The message of the latest error.
  public var lastError: String?
  /// Its sessions alive now (stores running its feature).
  public var sessions: Int
}
