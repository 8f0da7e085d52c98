import LuaBridge

/// One event of Lunar's JSON output: what `lunar run --json`, `lunar host --json`, `lunar replay
/// --json`, `lunar test --json`, `lunar check --json` and `lunar list --json` write, one per line.
///
/// Every event is written by ``encoded(plugin:)`` (`docs/events.md` documents each one):
///
/// ```swift
/// let (line, _) = HostEvent.note("2 effect(s) still running").encoded()
/// // {"event":"note","message":"2 effect(s) still running"}
/// ```
package enum HostEvent: Sendable {
  /// A session starts: the feature's name, its whole state, its view when shown.
  case ready(feature: String, state: LuaValue, view: String?)
  /// An action reaches the store; `source` is `input` or `effect`.
  case action(LuaValue, source: String)
  /// The state after an action: whether it changed, what changed or the whole state, and the
  /// view when it changed and is shown.
  case state(changed: Bool, content: StateContent, view: String?)
  /// An effect started or finished (`status`), for an action of type `type`; `running` effects remain.
  case effect(status: String, type: LuaValue, running: Int)
  /// An error of a feature (load, reduce, effect, view, …) with where it happened.
  case featureError(FeatureFailure)
  /// A line of input that is not an action or a command.
  case inputError(message: String, input: String)
  /// An error of the host rather than of a feature; `kind` says which (`output`, `record`, `data`).
  case hostError(kind: String, message: String)
  /// Something the user should know, which is not an error.
  case warning(String)
  /// A remark of the host (effects still running, a replay's summary).
  case note(String)
  /// What a script printed with `print(…)`.
  case printed(String)
  /// A hot reload (`--watch`) and how long it took; `failure` when the new version did not load.
  case reload(milliseconds: Double, files: [String], failure: FeatureFailure?)
  /// A plugin loaded (`lunar host`): its figures, its feature's name, its state and view.
  case loaded(PluginFigures, feature: String, state: LuaValue, view: String?)
  /// A plugin's new version serves (`lunar host --watch` or a `reload` command).
  case reloaded(version: String, granted: LuaValue)
  /// A plugin was unloaded.
  case unloaded
  /// A plugin did not load (or reload: then the running version keeps serving).
  case failed(kind: String, message: String, file: String?, line: Int?, reloading: Bool, folder: String)
  /// The plugins of a host and their figures, each under its `name`.
  case plugins([(name: String, figures: PluginFigures)])
  /// A replay reached another action or state than the recording.
  case divergence(message: String, step: Int?)
  /// What `lunar check` found in one feature.
  case check(feature: String?, path: String, plugin: LuaValue?, problems: [Problem])
  /// What `lunar list` found in one feature.
  case feature(name: String?, path: String, actions: [String], dependencies: [String], ok: Bool)
  /// One test's result (`lunar test`).
  case test(name: String, file: String, declaredAt: String, milliseconds: Double, failures: [(message: String, location: String?)])
  /// How many tests passed and failed.
  case summary(passed: Int, failed: Int)

  /// What a state event carries.
  package enum StateContent: Sendable {
    /// What changed, in order: `[{"op":"set","path":[…],"value":…}, {"op":"remove","path":[…]}]`.
    case patch(LuaValue)
    /// The whole state.
    case whole(LuaValue)
  }

  /// An error of a feature, as error and reload events write it.
  package struct FeatureFailure: Sendable {
    package var kind: String
    package var feature: String
    package var message: String
    package var file: String?
    package var line: Int?
    package var action: LuaValue?
    package var traceback: String?

    package init(
      kind: String, feature: String, message: String, file: String?, line: Int?, action: LuaValue?, traceback: String?
    ) {
      self.kind = kind
      self.feature = feature
      self.message = message
      self.file = file
      self.line = line
      self.action = action
      self.traceback = traceback
    }
  }

  /// A plugin's status, manifest and costs, as `loaded` and `plugins` events write them.
  package struct PluginFigures: Sendable {
    package var status: String
    package var version: String
    package var api: Int
    package var requested: LuaValue
    package var granted: LuaValue
    package var actions: Int
    package var effects: Int
    package var memory: Int
    package var errors: Int
    /// The median and 99th percentile of the time per action, in nanoseconds, once measured.
    package var timePerAction: (p50: Int64, p99: Int64)?

    package init(
      status: String, version: String, api: Int, requested: LuaValue, granted: LuaValue, actions: Int, effects: Int,
      memory: Int, errors: Int, timePerAction: (p50: Int64, p99: Int64)?
    ) {
      self.status = status
      self.version = version
      self.api = api
      self.requested = requested
      self.granted = granted
      self.actions = actions
      self.effects = effects
      self.memory = memory
      self.errors = errors
      self.timePerAction = timePerAction
    }
  }

  /// A problem `lunar check` found, with where when known.
  package struct Problem: Sendable {
    package var message: String
    package var file: String?
    package var line: Int?

    package init(message: String, file: String?, line: Int?) {
      self.message = message
      self.file = file
      self.line = line
    }
  }

  /// The event as one line of JSON, naming `plugin` when there is one, and whether it was written
  /// whole. When a value cannot be written (text that is not UTF-8, NaN), an error event is
  /// written without that value when the event is an error, and otherwise an `output` error that
  /// says why, instead: `complete` is then `false`, and the host counts it as an error of its own.
  package func encoded(plugin: String? = nil) -> (line: String, complete: Bool) {
    // NB: `lunar test`'s summary has always been written in this order, not sorted: kept as it was.
    if case let .summary(passed, failed) = self, plugin == nil {
      return (#"{"event":"summary","passed":\#(passed),"failed":\#(failed)}"#, true)
    }
    var fields = self.fields
    if let plugin { fields["plugin"] = .text(plugin) }
    do {
      return (try JSONText.line(fields), true)
    } catch {
      if let line = JSONText.errorLine(without: fields, error) { return (line, true) }
      return (JSONText.errorLine(kind: "output", message: JSONText.unwritable(fields, error)), false)
    }
  }
}
