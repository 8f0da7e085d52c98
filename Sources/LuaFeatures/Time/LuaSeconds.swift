/// A number of seconds from Lua (`fx.debounce("d", 0.3, …)`, `deps.clock.sleep(2)`,
/// `t:advance(1)`) as a `Duration`, or a clear refusal.
///
/// ```swift
/// let wait = try LuaSeconds.duration(0.3)        // .milliseconds(300)
/// try LuaSeconds.duration(1e19)                   // throws: above the longest duration
/// ```
///
/// > Important: `Duration.seconds(_:)` traps on a `Double` beyond what it can hold (about 9.2e18
/// > seconds), and a script can write any number: every duration a script gives goes through here.
enum LuaSeconds {
  /// The longest duration a script may ask for: a billion seconds, about 31 years.
  static let maximum: Double = 1e9

  /// Why a number is not a duration.
  struct Refusal: Error, CustomStringConvertible {
    let value: Double
    var description: String {
      "a duration must be a finite number of seconds from 0 to 1e9 (about 31 years), got \(LuaSeconds.text(value))"
    }
  }

  /// `seconds` as a duration; non-finite, negative and too long values are refused.
  static func duration(_ seconds: Double) throws(Refusal) -> Duration {
    guard seconds.isFinite, seconds >= 0, seconds <= maximum else { throw Refusal(value: seconds) }
    // NB: whole and fractional parts apart, so no step rounds through a value Duration cannot hold.
    let whole = seconds.rounded(.towardZero)
    let nanoseconds = ((seconds - whole) * 1e9).rounded()
    return .seconds(Int64(whole)) + .nanoseconds(Int64(nanoseconds))
  }

  static func text(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value > 0 ? "inf" : "-inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
