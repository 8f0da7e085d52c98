import LuaBridge

extension HostEvent {
  /// The event's name, its `"event"` field.
  package var name: String {
    switch self {
    case .ready: "ready"
    case .action: "action"
    case .state: "state"
    case .effect: "effect"
    case .featureError, .inputError, .hostError: "error"
    case .warning: "warning"
    case .note: "note"
    case .printed: "print"
    case .reload: "reload"
    case .loaded: "loaded"
    case .reloaded: "reloaded"
    case .unloaded: "unloaded"
    case .failed: "failed"
    case .plugins: "plugins"
    case .divergence: "divergence"
    case .check: "check"
    case .feature: "feature"
    case .test: "test"
    case .summary: "summary"
    }
  }

  /// The event's fields, `"event"` included: the one place that says how each event is written.
  package var fields: [String: LuaValue] {
    var fields: [String: LuaValue] = ["event": .text(name)]
    switch self {
    case let .ready(feature, state, view):
      fields["feature"] = .text(feature)
      fields["state"] = state
      if let view { fields["view"] = .text(view) }
    case let .action(action, source):
      fields["source"] = .text(source)
      fields["action"] = action
    case let .state(changed, content, view):
      fields["changed"] = .boolean(changed)
      switch content {
      case let .patch(patch): fields["patch"] = patch
      case let .whole(state): fields["state"] = state
      }
      if let view { fields["view"] = .text(view) }
    case let .effect(status, type, running):
      fields["status"] = .text(status)
      fields["action"] = type
      fields["running"] = .integer(Int64(running))
    case let .featureError(failure):
      fields.merge(failure.fields) { $1 }
      fields["feature"] = .text(failure.feature)
      fields["action"] = failure.action ?? .nil
      fields["traceback"] = Self.optional(failure.traceback)
    case let .inputError(message, input):
      fields["kind"] = "input"
      fields["message"] = .text(message)
      fields["input"] = .text(input)
      fields["file"] = .nil
      fields["line"] = .nil
    case let .hostError(kind, message):
      fields["kind"] = .text(kind)
      fields["message"] = .text(message)
      fields["file"] = .nil
      fields["line"] = .nil
    case let .warning(message), let .note(message):
      fields["message"] = .text(message)
    case let .printed(text):
      fields["text"] = .text(text)
    case let .reload(milliseconds, files, failure):
      fields["ok"] = .boolean(failure == nil)
      fields["ms"] = .number((milliseconds * 10).rounded() / 10)
      fields["files"] = .array(files.map { LuaValue.text($0) })
      if let failure { fields.merge(failure.fields) { $1 } }
    case let .loaded(figures, feature, state, view):
      fields.merge(figures.fields) { $1 }
      fields["feature"] = .text(feature)
      fields["state"] = state
      if let view { fields["view"] = .text(view) }
    case let .reloaded(version, granted):
      fields["version"] = .text(version)
      fields["granted"] = granted
    case .unloaded:
      break
    case let .failed(kind, message, file, line, reloading, folder):
      fields["kind"] = .text(kind)
      fields["message"] = .text(message)
      fields["file"] = Self.optional(file)
      fields["line"] = Self.optional(line)
      fields["reloading"] = .boolean(reloading)
      fields["folder"] = .text(folder)
    case let .plugins(plugins):
      fields["plugins"] = .array(plugins.map { plugin in
        var entry = plugin.figures.fields
        entry["name"] = .text(plugin.name)
        return Self.table(entry)
      })
    case let .divergence(message, step):
      fields["message"] = .text(message)
      fields["step"] = Self.optional(step)
    case let .check(feature, path, plugin, problems):
      fields["feature"] = Self.optional(feature)
      fields["path"] = .text(path)
      fields["plugin"] = plugin ?? .nil
      fields["ok"] = .boolean(problems.isEmpty)
      fields["problems"] = .array(problems.map { problem in
        ["message": .text(problem.message), "file": Self.optional(problem.file), "line": Self.optional(problem.line)]
      })
    case let .feature(name, path, actions, dependencies, ok):
      fields["name"] = Self.optional(name)
      fields["path"] = .text(path)
      fields["actions"] = .array(actions.map { LuaValue.text($0) })
      fields["dependencies"] = .array(dependencies.map { LuaValue.text($0) })
      fields["ok"] = .boolean(ok)
    case let .test(name, file, declaredAt, milliseconds, failures):
      fields["name"] = .text(name)
      fields["file"] = .text(file)
      fields["declaredAt"] = .text(declaredAt)
      fields["passed"] = .boolean(failures.isEmpty)
      fields["milliseconds"] = .number(milliseconds)
      fields["failures"] = .array(failures.map { ["message": .text($0.message), "location": Self.optional($0.location)] })
    case let .summary(passed, failed):
      fields["passed"] = .integer(Int64(passed))
      fields["failed"] = .integer(Int64(failed))
    }
    return fields
  }

  /// `fields` as a JSON object.
  package static func table(_ fields: [String: LuaValue]) -> LuaValue {
    var entries: [LuaString: LuaValue] = [:]
    for (key, value) in fields { entries[LuaString(key)] = value }
    return .table(entries)
  }

  static func optional(_ text: String?) -> LuaValue { text.map { LuaValue.text($0) } ?? .nil }

  static func optional(_ number: Int?) -> LuaValue { number.map { .integer(Int64($0)) } ?? .nil }
}

extension HostEvent.FeatureFailure {
  /// The fields an error and a failed reload share: `kind`, `message`, `file`, `line`.
  var fields: [String: LuaValue] {
    ["kind": .text(kind), "message": .text(message), "file": HostEvent.optional(file), "line": HostEvent.optional(line)]
  }
}

extension HostEvent.PluginFigures {
  /// The fields of a plugin in `loaded` and `plugins` events.
  var fields: [String: LuaValue] {
    var fields: [String: LuaValue] = [
      "status": .text(status), "version": .text(version), "api": .integer(Int64(api)), "requested": requested,
      "granted": granted, "actions": .integer(Int64(actions)), "effects": .integer(Int64(effects)),
      "memory": .integer(Int64(memory)), "errors": .integer(Int64(errors)),
    ]
    if let timePerAction {
      fields["timePerAction"] = ["p50": .integer(timePerAction.p50), "p99": .integer(timePerAction.p99)]
    }
    return fields
  }
}
