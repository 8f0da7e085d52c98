import LuaBridge

extension LuaFeature {
  /// The action types the feature declares in `actions = { … }`, with the keys of its body's
  /// children (whose wrapped actions it accepts), sorted; `nil` when it declares none.
  ///
  /// ```swift
  /// counter.declaredActionTypes   // ["decrement", "factLoaded", "factTapped", "increment"]
  /// ```
  public var declaredActionTypes: [String]? {
    guard let names = try? host.vm.call(host.prelude.declaredTypes, table, returning: LuaValue.self),
      let list = names.arrayValue
    else { return nil }
    return list.compactMap(\.stringValue)
  }

  /// Why `action` is not one of the feature's declared actions, in the author's terms (an unknown
  /// type with the nearest declared one, a missing, extra or mistyped field), or `nil` when it is
  /// one, or when the feature declares none.
  ///
  /// ```swift
  /// counter.problem(with: ["type": "incremnt"])
  /// // unknown action "incremnt" (did you mean "increment"?); Counter's actions are …
  /// ```
  ///
  /// > Important: Wrapped child actions (`{ type = "todos", id = 3, action = … }`) are checked
  /// > against the child's declarations; the shape of the wrapping is composition's to check.
  public func problem(with action: LuaValue) -> String? {
    do {
      let problem = try host.vm.call(host.prelude.validateAction, table, action, returning: LuaValue.self)
      return problem.stringValue
    } catch {
      return "\(error)"
    }
  }
}
