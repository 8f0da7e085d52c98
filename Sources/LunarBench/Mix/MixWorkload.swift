/// One action of the benchmarks' action mix (`bench/mix.lua`, and the same mix Redux-style in
/// `bench/redux_mix.lua`), sent over a list of `rows` rows.
///
/// ```swift
/// try MixWorkload.toggleRow.runLunar(times: 10_000)
/// try MixWorkload.toggleRow.runRedux(times: 10_000)
/// ```
public enum MixWorkload: String, CaseIterable, Sendable {
  /// The counter example's own `increment`, on its own feature (`examples/counter/feature.lua` of
  /// the checkout the benchmarks were built from): `count + 1` and `fact = nil` in a feature that
  /// composes nothing.
  case counter
  /// The counter's `increment` in the mix: `count + 1` and `fact = nil`.
  case increment
  /// Two scalar writes: `loading = action.loading`, `fact = action.fact` (values that alternate).
  case twoWrites
  /// A nested write: `profile.address.city = action.city` (values that alternate).
  case nested
  /// Toggling the middle row of a 1,000-row `lunar.forEach` list.
  case toggleRow
  /// The same toggle in a 10-row list.
  case toggleRow10
  /// The same toggle in a 10,000-row list.
  case toggleRow10000
  /// Adding a row to a 1,000-row list, then removing it, in turns.
  case addRemove
  /// The same in a 10-row list.
  case addRemove10
  /// The counter's fact button: two writes and an `fx.run` effect (its task cancelled at once).
  case effect

  /// What the workload sends, as a table's first column.
  public var label: String {
    switch self {
    case .counter: "the counter example's own increment"
    case .increment: "increment (count + 1, fact = nil)"
    case .twoWrites: "two scalar writes"
    case .nested: "nested write (profile.address.city)"
    case .toggleRow: "toggle a row, forEach of 1,000"
    case .toggleRow10: "toggle a row, forEach of 10"
    case .toggleRow10000: "toggle a row, forEach of 10,000"
    case .addRemove: "add a row, remove it (1,000 rows)"
    case .addRemove10: "add a row, remove it (10 rows)"
    case .effect: "two writes + fx.run effect"
    }
  }

  /// The rows of the list in the state the workload starts from.
  public var rows: Int {
    switch self {
    case .toggleRow10, .addRemove10: 10
    case .toggleRow10000: 10_000
    case .counter: 0
    default: 1_000
    }
  }

  /// Whether one action costs a side a millisecond or more (a list copied whole): the benchmarks
  /// send fewer of them.
  public var isCostly: Bool {
    self == .toggleRow10000 || self == .addRemove
  }

  /// The kind of action, as `bench/redux_mix.lua` names it.
  var kind: String {
    switch self {
    case .toggleRow, .toggleRow10, .toggleRow10000: "toggleRow"
    case .addRemove, .addRemove10: "addRemove"
    default: rawValue
    }
  }
}
