import LuaBridge

/// Where an entry of the action log came from.
public enum DevtoolsSource: String, Sendable {
  /// The session started: the state it starts from (the log's first entry).
  case started
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
  /// The state after it: as recorded, or as recomputed once an action before it was skipped.
  public internal(set) var state: LuaValue
  public internal(set) var view: String?
  public internal(set) var errors: [DevtoolsError]
  /// Whether the page skipped it: the states after it are recomputed without it.
  public internal(set) var skipped = false
  /// Whether its state was recomputed (an action before it was skipped or unskipped): its view is
  /// rendered again when shown.
  public internal(set) var recomputed = false
  /// Milliseconds since the devtools started.
  public let time: Double

  /// Whether it is an action the session reduced, which skipping leaves out of the recomputed
  /// states (a connection, a reload or a resume is not).
  var isReducedAction: Bool {
    guard action != nil else { return false }
    switch source {
    case .input, .effect, .devtools, .imported: return true
    case .started, .connected, .reload: return false
    }
  }

  /// Whether it carries the state before it on when states are recomputed (a connection or a
  /// reload keeps the state; a resume or an imported start puts another one in its place).
  var keepsState: Bool {
    switch source {
    case .started, .connected, .reload: return true
    case .input, .effect, .devtools, .imported: return action != nil
    }
  }
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
