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
    feature.problem(with: action)
  }
}
