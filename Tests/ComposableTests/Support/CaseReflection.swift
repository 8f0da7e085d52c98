import CasePathsCore

/// A case path for the enum case `embed` makes, found by reflection: lets tests declare
/// `CasePathable` actions in one line per case, without macros.
///
/// ```swift
/// struct AllCasePaths {
///   var child: AnyCasePath<Action, Child.Action> { casePath(Action.child) }
///   var tap: AnyCasePath<Action, Void> { casePath(Action.tap) }
/// }
/// ```
func casePath<Root, Value>(_ embed: @escaping (Value) -> Root) -> AnyCasePath<Root, Value> {
  nonisolated(unsafe) let embed = embed
  return AnyCasePath(
    embed: { embed($0) },
    extract: { root in
      guard
        let child = Mirror(reflecting: root).children.first,
        let value = child.value as? Value,
        Mirror(reflecting: embed(value)).children.first?.label == child.label
      else { return nil }
      return value
    }
  )
}

/// A case path for a case without a payload.
func casePath<Root>(_ value: Root) -> AnyCasePath<Root, Void> {
  nonisolated(unsafe) let value = value
  let name = String(describing: value)
  return AnyCasePath(
    embed: { value },
    extract: { root in
      Mirror(reflecting: root).children.isEmpty && String(describing: root) == name ? () : nil
    }
  )
}
