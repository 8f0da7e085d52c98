import Composable
import Dependencies
import LuaBridge

/// A cancellation id from Lua (`"search"`, `3`): kept apart from Swift ids of equal value, from the
/// ids of other instances of the feature, and from the ids of its children.
struct LuaEffectID: Hashable, Sendable {
  /// NB: two instances of a feature can share a store (a Swift parent combining them): their ids
  ///     must not meet.
  let instance: ObjectIdentifier
  /// NB: the core lets a parent's `.cancel(id:)` reach its children's effects with an equal id, as
  ///     TCA does. Lua ids are plain strings, and Lua modules compose children they do not know, so a
  ///     parent's "save" must not stop a child's: the level of composition keeps them apart.
  let depth: Int
  let value: LuaValue
}

/// The keys of an effect description's fields. NB: made once: a `LuaString` made for each lookup
/// would allocate, several times per effect.
private enum EffectField {
  static let action = LuaString("action")
  static let cancelInFlight = LuaString("cancelInFlight")
  static let effect = LuaString("effect")
  static let effects = LuaString("effects")
  static let handle = LuaString("handle")
  static let id = LuaString("id")
  static let identity = LuaString("identity")
  static let key = LuaString("key")
  static let kind = LuaString("kind")
  static let latest = LuaString("latest")
  static let mode = LuaString("mode")
  static let origin = LuaString("origin")
  static let seconds = LuaString("seconds")
}

extension LuaFeatureInstance {
  /// Turns an effect description from the prelude into the core's effect.
  ///
  /// Inside a composed feature, `path` is the child whose reducer described the effect: actions
  /// it sends are wrapped for the root, `fx.dismiss()` sends the presenting parent's dismiss, and
  /// `child` descriptions nest one level deeper, `Effect.scoped(to:)` their ``LuaChildScope``
  /// (see `Sources/LuaFeatures/Lua/lunar/compose.lua`).
  func translate(_ description: LuaValue, action: LuaValue, in path: LuaChildPath? = nil) throws -> Effect<LuaValue> {
    guard case let .table(fields) = description else {
      if description.isNil { return .none }
      throw malformed("an effect description must be a table, got \(description.typeName)", action)
    }
    func field(_ key: LuaString) -> LuaValue { fields[key] ?? .nil }
    func seconds() throws -> Duration {
      guard let value = field(EffectField.seconds).numberValue else {
        throw malformed("a duration must be a finite number of seconds from 0 to 1e9 (about 31 years)", action)
      }
      do {
        return try LuaSeconds.duration(value)
      } catch {
        throw malformed(error.description, action)
      }
    }
    switch field(EffectField.kind).stringValue {
    case "none":
      return .none
    case "send":
      return .send(try declared(path?.wrap(field(EffectField.action)) ?? field(EffectField.action), origin: field(EffectField.origin), action))
    case "run":
      guard let handle = field(EffectField.handle).integerValue else { throw malformed("fx.run without a handle", action) }
      let origin = field(EffectField.origin).stringValue ?? "?"
      // NB: named by its Lua line, so "still running" messages point at the script, not at us.
      // NB: each action it sends passes the feature's gate, as an input line does: one that JSON
      //     cannot hold, or (when the feature declares its actions) none of them, is refused here.
      return .run(origin: EffectOrigin(label: origin)) { @MainActor [weak self] send in
        await self?.drive(handle: handle, origin: origin, send: Send { [weak self] sent in
          let wrapped = path?.wrap(sent) ?? sent
          guard let self, let problem = self.feature.problem(with: wrapped) else { return send(wrapped) }
          self.host.report(LuaFeatureError(effectSending: problem, origin: origin, feature: self.feature.name, action: wrapped))
        })
      }
    case "merge", "concat":
      let members = try (field(EffectField.effects).arrayValue ?? []).map { try translate($0, action: action, in: path) }
      return field(EffectField.kind).stringValue == "merge" ? .merge(members) : .concatenate(members)
    case "cancellable":
      let inner = try translate(field(EffectField.effect), action: action, in: path)
      return inner.cancellable(id: LuaEffectID(instance: ObjectIdentifier(self), depth: path?.depth ?? 0, value: field(EffectField.id)), cancelInFlight: field(EffectField.cancelInFlight).boolValue ?? false)
    case "cancel":
      return .cancel(id: LuaEffectID(instance: ObjectIdentifier(self), depth: path?.depth ?? 0, value: field(EffectField.id)))
    case "debounce":
      @Dependency(\.continuousClock) var clock
      return Effect.send(try declared(path?.wrap(field(EffectField.action)) ?? field(EffectField.action), origin: field(EffectField.origin), action))
        .debounce(id: LuaEffectID(instance: ObjectIdentifier(self), depth: path?.depth ?? 0, value: field(EffectField.id)), for: try seconds(), clock: clock)
    case "throttle":
      @Dependency(\.continuousClock) var clock
      return Effect.send(try declared(path?.wrap(field(EffectField.action)) ?? field(EffectField.action), origin: field(EffectField.origin), action))
        .throttle(id: LuaEffectID(instance: ObjectIdentifier(self), depth: path?.depth ?? 0, value: field(EffectField.id)), for: try seconds(), clock: clock, latest: field(EffectField.latest).boolValue ?? false)
    case "child":
      let key = field(EffectField.key), id = field(EffectField.id), mode = field(EffectField.mode).stringValue
      let inner = try translate(
        field(EffectField.effect), action: action,
        in: (path ?? LuaChildPath()).appending(key: key, id: id, presents: mode == "ifLet" || mode == "stack")
      )
      return inner.scoped(to: LuaChildScope(instance: ObjectIdentifier(self), key: key, identity: field(EffectField.identity)))
    case "cancelChild":
      return .cancel(scope: LuaChildScope(instance: ObjectIdentifier(self), key: field(EffectField.key), identity: field(EffectField.identity)))
    case "dismiss":
      guard let dismissal = path?.dismissal else {
        throw malformed(
          "fx.dismiss() closes a presented child, but \(feature.name) is not presented: return it from a feature "
            + "that a parent runs with lunar.ifLet or lunar.stack", action)
      }
      return .send(dismissal)
    default:
      throw malformed("unknown effect kind \(field(EffectField.kind))", action)
    }
  }

  /// `sent`, when it passes the feature's gate (JSON can hold it, and the feature declares it or
  /// declares no actions); otherwise an error naming the line that built the effect.
  private func declared(_ sent: LuaValue, origin: LuaValue, _ action: LuaValue) throws -> LuaValue {
    guard let problem = feature.problem(with: sent) else { return sent }
    var error = malformed(problem, action)
    if let origin = origin.stringValue { error = LuaFeatureError(effectSending: problem, origin: origin, feature: feature.name, action: action) }
    error.kind = .malformedEffect
    throw error
  }

  private func malformed(_ message: String, _ action: LuaValue) -> LuaFeatureError {
    LuaFeatureError(kind: .malformedEffect, feature: feature.name, message: message, action: action)
  }
}
