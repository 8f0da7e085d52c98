import Foundation
import LuaBridge
import LuaFeatures

extension RunSession {
  /// Checks an action typed or piped in before it is sent: `false` (and an input error) when JSON
  /// cannot hold it, or the feature declares its actions and this is none of them. A feature that
  /// declares none gets a warning when the action's type appears nowhere in its scripts, and the
  /// action is sent.
  func accepts(_ action: LuaValue, line: String) -> Bool {
    if let problem = TypedActionCheck.refusal(of: action, by: feature) {
      output.inputError(problem, line: line)
      return false
    }
    if feature.declaresActions { return true }
    guard let type = action[LuaString("type")].stringValue else { return true }
    let known = knownTypes()
    if !known.isEmpty, !known.contains(type) {
      let near = LuaFeature.nearest(to: type, in: known.sorted()).map { " (did you mean \"\($0)\"?)" } ?? ""
      output.warning(
        "no script of \(feature.name) compares action.type with \"\(type)\"\(near); sent all the same "
          + "(declare the feature's actions to refuse unknown ones)")
    }
    return true
  }

  /// The action types the serving version's scripts compare against, read once per version: a
  /// piped run of thousands of actions reads its scripts once, not once per action.
  private func knownTypes() -> Set<String> {
    if let cached = knownTypesCache, cached.feature === feature { return cached.types }
    let types = Self.knownTypes(of: feature)
    knownTypesCache = (feature, types)
    return types
  }

  /// The action types the feature's scripts compare against, and its children's keys.
  static func knownTypes(of feature: LuaFeature) -> Set<String> {
    Set(FeatureCheck.comparedActionTypes(in: feature.loadedFiles)).union(feature.childActionTypes)
  }
}
