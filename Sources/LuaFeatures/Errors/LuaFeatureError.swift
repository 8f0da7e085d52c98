import LuaBridge

/// Something a Lua feature did wrong, as the host reports it: what failed, where (`file:line`), in
/// which feature, for which action, and Lua's traceback.
///
/// ```
/// error: Counter: counter.lua:12: attempt to perform arithmetic on a nil value (field 'count')
///   while reducing: {type = "increment"}
///   state left unchanged
/// ```
///
/// A reducer that fails leaves its state exactly as it was; an effect that fails ends alone. The
/// store goes on either way.
public struct LuaFeatureError: Error, Sendable, CustomStringConvertible {
  /// What was running when it failed.
  public enum Kind: String, Sendable, Hashable {
    /// Loading the script: a syntax error, an error at load time, or a script that does not return
    /// `lunar.feature { … }`.
    case load
    /// The reducer raised, ran out of its instruction budget or memory, or put something that is
    /// not data (a function, a cycle) in state. State was rolled back.
    case reducer
    /// The reducer returned something that is not an effect. State was rolled back.
    case malformedEffect
    /// An effect raised (outside a `catch`), or sent a malformed action. The effect ended.
    case effect
    /// A dependency was misused: unknown, or called with arguments it cannot decode.
    case dependency
    /// Hot reload's `migrate(state)` failed. The old reducer and state were kept.
    case migration
    /// `view(state)` raised, or returned something other than a string. The action's change to
    /// the state was made; only its view is missing.
    case view
  }

  /// What was running.
  public var kind: Kind
  /// The feature's name (`Counter`).
  public var feature: String
  /// The message, with Lua's `file:line:` prefix when there is one.
  public var message: String
  /// The script file of the failing line.
  public var file: String?
  /// The failing line.
  public var line: Int?
  /// Lua's traceback, when known.
  public var traceback: String?
  /// The action being reduced, or the action an effect tried to send.
  public var action: LuaValue?
  /// The kind of the underlying Lua failure (`instructionLimit`, `memory`, …), when there is one.
  public var luaKind: LuaError.Kind?

  /// An error from its parts.
  public init(
    kind: Kind, feature: String, message: String, file: String? = nil, line: Int? = nil,
    traceback: String? = nil, action: LuaValue? = nil, luaKind: LuaError.Kind? = nil
  ) {
    self.kind = kind
    self.feature = feature
    self.message = message
    self.file = file
    self.line = line
    self.traceback = traceback
    self.action = action
    self.luaKind = luaKind
  }

  /// Wraps a Lua error raised while running `feature`.
  init(_ error: LuaError, kind: Kind, feature: String, action: LuaValue? = nil) {
    var message = error.message
    switch error.kind {
    case .instructionLimit:
      message = "ran out of its instruction budget (an endless loop?): \(error.message)"
    case .timeLimit:
      message = "ran past its time limit (an endless loop, or a slow library call?): \(error.message)"
    case .memory:
      message = "ran out of memory: \(error.message)"
    case .stackOverflow:
      message = "stack overflow (endless recursion?): \(error.message)"
    default:
      break
    }
    var file = error.file
    var line = error.line
    // NB: a budget or memory overrun often strikes inside the prelude (a state proxy): point at the
    //     script's own line, the first frame of the traceback outside the prelude.
    if let current = file, Self.preludeChunks.contains(current),
      let frame = Self.firstScriptFrame(in: error.traceback ?? "")
    {
      (file, line) = frame
    }
    self.init(
      kind: kind, feature: feature, message: message, file: file, line: line,
      traceback: error.traceback.flatMap(Self.authorsFrames), action: action, luaKind: error.kind
    )
  }

  /// A traceback with only the frames of the author's scripts: Lunar's own Lua, C functions and
  /// tail-call markers left out. `nil` when no frame is left.
  static func authorsFrames(_ traceback: String) -> String? {
    var frames: [Substring] = []
    for frame in traceback.split(separator: "\n") {
      let text = frame.trimmingCharacters(in: .whitespaces)
      if text.hasPrefix("stack traceback") || text.hasPrefix("[C]") || text.hasPrefix("(...") { continue }
      if preludeChunks.contains(where: { text.hasPrefix($0 + ":") }) { continue }
      frames.append(frame)
    }
    guard !frames.isEmpty else { return nil }
    return (["stack traceback:"] + frames).joined(separator: "\n")
  }

  /// The chunk names of Lunar's own Lua that a script's author never needs to read in an error:
  /// the `lunar` module, the host's state proxies, effects and composition, and `lunar.test` (the files of
  /// `Sources/LuaFeatures/Lua/lunar/`, named by their path there, such as `lunar/_base.lua`).
  ///
  /// Errors raised inside them are located at the script's own frame instead, and tracebacks
  /// leave them out.
  public static let preludeChunks: Set<String> = Set(Prelude.files.map(\.name))

  /// The first `file:line:` of a traceback that is not the prelude's.
  static func firstScriptFrame(in traceback: String) -> (String, Int)? {
    for rawLine in traceback.split(separator: "\n") {
      let text = rawLine.trimmingCharacters(in: .whitespaces)
      let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count >= 2, let number = Int(parts[1]), !preludeChunks.contains(String(parts[0])),
        parts[0].hasSuffix(".lua")
      else { continue }
      return (String(parts[0]), number)
    }
    return nil
  }

  /// A load error raised inside `lunar.feature` (a missing `initial`, say) names the prelude:
  /// `return lunar.feature {…}` is a tail call, so the script's frame is gone. Name the script, at
  /// its `lunar.feature` line when `source` shows it.
  func located(in script: String, source: String?) -> LuaFeatureError {
    guard let file, Self.preludeChunks.contains(file) else { return self }
    var error = self
    error.file = script
    error.line = source.flatMap { text in
      text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { line in
        let code = line.split(separator: "--", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return code.contains("lunar.feature")
      }.map { $0 + 1 }
    }
    if error.message.hasPrefix(file + ":") {
      let rest = error.message.dropFirst(file.count + 1).drop { $0.isNumber }
      error.message = String(rest.hasPrefix(":") ? rest.dropFirst() : rest).trimmingCharacters(in: .whitespaces)
    }
    return error
  }

  /// `file:line`, when known.
  public var location: String? {
    guard let file else { return nil }
    return line.map { "\(file):\($0)" } ?? file
  }

  public var description: String {
    var lines = ["error: \(feature): \(message)"]
    if let action {
      switch kind {
      case .reducer, .malformedEffect:
        lines.append("  while reducing: \(action)")
      case .effect:
        lines.append("  action: \(action)")
      default:
        break
      }
    }
    switch kind {
    case .reducer, .malformedEffect: lines.append("  state left unchanged")
    case .migration: lines.append("  kept the running version and its state")
    case .view: lines.append("  in view(state): the state's change was made")
    default: break
    }
    if let traceback, !traceback.isEmpty {
      // NB: Lunar's own frames (the prelude, C functions) are noise to the script's author.
      let frames = traceback.split(separator: "\n").filter { frame in
        let text = frame.trimmingCharacters(in: .whitespaces)
        return !Self.preludeChunks.contains { text.hasPrefix($0 + ":") } && !text.hasPrefix("[C]:")
      }
      if frames.count > 1 || frames.first.map({ !$0.hasPrefix("stack traceback") }) == true {
        lines.append(frames.map { "  " + $0 }.joined(separator: "\n"))
      }
    }
    return lines.joined(separator: "\n")
  }
}
