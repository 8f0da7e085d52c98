import LuaBridge

/// Where an entry of the action log came from.
public enum DevtoolsSource: String, Sendable {
  /// The page connected: the state at that moment (actions before it are not shown).
  case connected
  /// An action typed or piped into the host.
  case input
  /// An action an effect sent.
  case effect
  /// The feature was reloaded (`--watch`), keeping its state.
  case reload
  /// An action dispatched from the page, or the store put back in an earlier state.
  case devtools
  /// A step of a session imported from a recording.
  case imported
}

/// An error shown in the log, at the entry during which it happened.
public struct DevtoolsError: Sendable, Equatable {
  /// What failed: `reducer`, `effect`, `view`, `load`, `input`…
  public var kind: String
  public var message: String
  /// Where, when known: the script's `file` and `line`.
  public var file: String?
  public var line: Int?

  public init(kind: String, message: String, file: String? = nil, line: Int? = nil) {
    self.kind = kind
    self.message = message
    self.file = file
    self.line = line
  }
}

/// One step of the session as the page shows it: the action, the state and view after it, the
/// errors it caused.
///
/// The state is kept as the value the store already holds (no copy is made: ``LuaValue`` shares its
/// storage); the diff against the previous entry is computed only when the page asks for it.
public struct DevtoolsEntry: Sendable {
  /// Its number in the session, from 1; never reused.
  public let id: Int
  public let source: DevtoolsSource
  /// The action; `nil` for an entry that is not one (a connection, a reload, a resume).
  public let action: LuaValue?
  /// What happened, when it is not an action: `resumed from #12`, `reloaded feature.lua`.
  public let note: String?
  public let state: LuaValue
  public let view: String?
  public internal(set) var errors: [DevtoolsError]
  /// Milliseconds since the devtools started.
  public let time: Double
}

/// What happened to an effect, as the timeline shows it.
public enum DevtoolsEffectStatus: String, Sendable {
  case started, sent, finished, cancelled
}

/// A point of the effects timeline.
public struct DevtoolsEffectEvent: Sendable {
  /// The effect's number (the effects an action started share one).
  public let effect: Int
  public let status: DevtoolsEffectStatus
  /// The entry of the action that started the effect, or (for `sent`) of the action it sent.
  public let entry: Int?
  /// The type of that action.
  public let actionType: String
  /// Where the effect was created (`feature.lua:42`), when the host knows it.
  public let origin: String?
  public let time: Double
}
