import LuaBridge
import LuaFeatures

/// The check of an action that comes from outside the feature — typed at a prompt, piped in, a
/// JSON line of `lunar host`, sent from the devtools page — before it is sent: the one place the
/// CLI asks a feature whether it takes an action.
///
/// ```swift
/// if let refusal = TypedActionCheck.refusal(of: ["type": "incremnt"], by: counter) {
///   // unknown action "incremnt" (did you mean "increment"?); Counter's actions are …
/// }
/// ```
@MainActor
enum TypedActionCheck {
  /// Why `feature` refuses `action` (JSON cannot hold it, or the feature declares its actions and
  /// this is none of them), in words; `nil` when it takes it.
  static func refusal(of action: LuaValue, by feature: LuaFeature) -> String? {
    guard let problem = feature.problem(with: action) else { return nil }
    guard problem.hasPrefix("unknown action"), let type = action[LuaString("type")].stringValue else { return problem }
    return problem + owners(of: type, in: feature)
  }

  /// `; dogs declares onAppear: dogs.onAppear` when children of `feature` take actions of `type`
  /// (an action typed at the root that a child owns), or nothing.
  static func owners(of type: String, in feature: LuaFeature) -> String {
    let paths = feature.actionPaths.map(\.path).filter { $0.hasSuffix("." + type) }
    guard !paths.isEmpty else { return "" }
    return paths.prefix(5).map { path in
      let child = path.dropLast(type.count + 1).replacingOccurrences(of: "[]", with: "")
      return "; \(child) declares \(type): \(path.replacingOccurrences(of: "[]", with: "[ID]"))"
    }.joined()
  }
}
