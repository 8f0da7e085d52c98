import LuaBridge

extension LuaFeature {
  /// Every action type declared in the feature and the features of its body, at any depth (their
  /// keys and `dismiss` for presented ones included), sorted; `nil` when one of them declares
  /// none. What `lunar check` judges the literal action types of the scripts and tests against.
  public var actionTypesOfTree: [String]? {
    guard let names = try? host.vm.call(host.prelude.typesOfTree, table, returning: LuaValue.self),
      let list = names.arrayValue
    else { return nil }
    return list.compactMap(\.stringValue)
  }

  /// Every action the feature takes, at any depth, as a path from it (`todos[].toggle`, with `[]`
  /// where an element's id goes) and the action's field names, sorted by path; the features that
  /// declare no actions add none of theirs.
  ///
  /// ```swift
  /// app.actionPaths   // [("dogs.breedTapped", ["breed"]), ("dogs.onAppear", []), …]
  /// ```
  public var actionPaths: [(path: String, fields: [String])] {
    guard let list = try? host.vm.call(host.prelude.actionPaths, table, returning: LuaValue.self) else { return [] }
    return (list.arrayValue ?? []).compactMap { entry in
      guard let path = entry[LuaString("path")].stringValue else { return nil }
      return (path, (entry[LuaString("fields")].arrayValue ?? []).compactMap(\.stringValue))
    }
  }

  /// The keys of its body's children (`lunar.forEach("todos", Todo)` gives `todos`): the types of
  /// the wrapped actions it takes for them.
  public var childActionTypes: [String] {
    let keys = try? host.vm.call(host.prelude.childKeys, table, returning: LuaValue.self)
    return (keys?.arrayValue ?? []).compactMap(\.stringValue)
  }

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

  /// Why `action` cannot be sent to the feature, in the author's terms, or `nil` when it can: the
  /// one check every action passes where it enters (an input line, a devtools dispatch, an
  /// effect's `send`).
  ///
  /// - **Any feature**: the action must be writable as JSON, as state must (``unwritable(_:)``):
  ///   its events and recordings are JSON.
  /// - **A feature declaring its actions**: it must be one of them (an unknown type with the
  ///   nearest declared one, a missing, extra or mistyped field).
  ///
  /// ```swift
  /// counter.problem(with: ["type": "incremnt"])
  /// // unknown action "incremnt" (did you mean "increment"?); Counter's actions are …
  /// ```
  ///
  /// > Important: Wrapped child actions (`{ type = "todos", id = 3, action = … }`) are checked
  /// > against the child's declarations; the shape of the wrapping is composition's to check.
  public func problem(with action: LuaValue) -> String? {
    if let unwritable = unwritable(action) { return unwritable }
    guard declaresActions else { return nil }
    do {
      let problem = try host.vm.call(host.prelude.validateAction, table, action, returning: LuaValue.self)
      return problem.stringValue
    } catch {
      return "\(error)"
    }
  }
}

extension LuaFeature {
  /// Why `action` cannot be written as JSON, naming the field, or `nil` when it can.
  ///
  /// An action is held to the rule state is held to: no NaN or infinities, strings and keys that
  /// are UTF-8 text, nesting within the VM's data depth. Its events and recordings are JSON; an
  /// action that JSON cannot hold would be reduced and then missing from them.
  ///
  /// ```swift
  /// counter.unwritable(["type": "tick", "n": .number(.nan)])
  /// // the action cannot be written as JSON: action.n: NaN (not a number) is not a JSON number
  /// ```
  public func unwritable(_ action: LuaValue) -> String? {
    do {
      try LuaJSONEncoder(depthLimit: host.vm.limits.dataDepth).validate(action, root: "action")
      return nil
    } catch {
      return "the action cannot be written as JSON: \(error)"
    }
  }

  /// The name of `names` nearest to `name` (fewest one-character edits), when it is near enough
  /// to be a misspelling: what "did you mean" suggests, everywhere Lunar suggests a name (the
  /// prelude's checks of actions and fields call it too).
  ///
  /// ```swift
  /// LuaFeature.nearest(to: "incremnt", in: ["increment", "decrement"])   // "increment"
  /// ```
  public static func nearest(to name: String, in names: [String]) -> String? {
    let lowered = name.lowercased()
    let best = names.map { ($0, editDistance(lowered, $0.lowercased())) }.min { $0.1 < $1.1 }
    guard let best, best.1 <= max(2, name.count / 3) else { return nil }
    return best.0
  }
}

/// The number of one-character edits between two strings: insertions, deletions, substitutions
/// and swaps of two neighbours ("lodaed" is one edit from "loaded").
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a), b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in 0...a.count { d[i][0] = i }
  for j in 0...b.count { d[0][j] = j }
  for i in 1...a.count {
    for j in 1...b.count {
      d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
    }
  }
  return d[a.count][b.count]
}

extension LuaFeatureError {
  /// An effect that sent (or was built to send) an action its feature does not declare: located
  /// at the line that built it (`origin`, `file:line`).
  init(effectSending problem: String, origin: String, feature: String, action: LuaValue) {
    let parts = origin.split(separator: ":")
    let file = parts.count == 2 ? String(parts[0]) : nil
    let line = parts.count == 2 ? Int(parts[1]) : nil
    self.init(
      kind: .effect, feature: feature, message: file == nil ? problem : "\(origin): \(problem)", file: file, line: line,
      action: action)
  }
}
