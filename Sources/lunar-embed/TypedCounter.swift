import LunarPlugins

/// The counter plugin's state as a Swift type: each property is the Lua field of the same name.
struct TypedCounter: Codable, Equatable, Sendable {
  var count: Int
  var fact: String?
  var loading: Bool
  var timerRunning: Bool
}

/// The counter plugin's actions as Swift cases: `.factLoaded(fact:)` is
/// `{ type = "factLoaded", fact = … }`, and the plugin's effects send them back as cases.
enum TypedCounterAction: Codable, Sendable {
  case increment, decrement, factTapped, toggleTimer, tick
  case factLoaded(fact: String)
  case factFailed(message: String)
}
