import LuaBridge

/// What the coroutine of an `fx.run` effect yields to Swift, decoded in one place: an action it
/// sends, a wait for a stream, or a call of an asynchronous dependency (see `host.effectBody` and `host.asyncCall` in
/// `Sources/LuaFeatures/Lua/lunar/_effects.lua`).
enum EffectYield {
  /// `send(action)`.
  case send(LuaValue)
  /// `deps.<name>(arguments…)` of an asynchronous dependency: resumed with its result.
  case call(name: String, arguments: [LuaValue])
  /// A loop over a stream a test feeds (`test.stream()`) found it empty: resumed once it is fed.
  case waitForStream(Int64)

  /// The loop over a stream a Swift dependency returned asks for its next value.
  case nextOfStream(Int64)

  /// The name a wait for a stream is yielded with, with the call tag: not a dependency's name.
  static let streamWait = "@stream"
  /// The name the next value of a Swift stream is asked for with, with the call tag.
  static let streamNext = "@next"

  /// The yield whose values are `values` (the tag first, as the prelude's `sendTag` and `callTag`
  /// name them); nil for anything else, which no effect of the prelude yields.
  init?(_ values: [LuaValue], sendTag: String, callTag: String) {
    let tag = values.first?.stringValue
    if tag == sendTag, values.count >= 2 {
      self = .send(values[1])
    } else if tag == callTag, values.count >= 3, values[1].stringValue == Self.streamWait, let stream = values[2].integerValue {
      self = .waitForStream(stream)
    } else if tag == callTag, values.count >= 3, values[1].stringValue == Self.streamNext, let stream = values[2].integerValue {
      self = .nextOfStream(stream)
    } else if tag == callTag, let name = values.dropFirst().first?.stringValue {
      self = .call(name: name, arguments: Array(values.dropFirst(2)))
    } else {
      return nil
    }
  }
}
