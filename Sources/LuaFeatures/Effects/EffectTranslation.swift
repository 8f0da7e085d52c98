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

extension LuaFeatureInstance {
  /// Turns an effect description from the prelude into the core's effect: decoded once into an
  /// ``EffectDescription``, then translated. A description that does not decode is reported as a
  /// malformed effect at the feature's `file:line`.
  func translate(_ description: LuaValue, action: LuaValue) throws -> Effect<LuaValue> {
    let decoded: EffectDescription
    do {
      decoded = try EffectDescription(decoding: description)
    } catch {
      var malformed = malformed(error.message, action)
      // NB: a composed feature with no reducer of its own has its name for an origin, not a line.
      let origin = feature.origin
      if let colon = origin.lastIndex(of: ":"), let line = Int(origin[origin.index(after: colon)...]) {
        malformed.file = String(origin[..<colon])
        malformed.line = line
      }
      throw malformed
    }
    return try translate(decoded, action: action)
  }

  /// Turns a decoded description into the core's effect.
  ///
  /// Inside a composed feature, `path` is the child whose reducer described the effect: actions
  /// it sends are wrapped for the root, `fx.dismiss()` sends the presenting parent's dismiss, and
  /// `child` descriptions nest one level deeper, `Effect.scoped(to:)` their ``LuaChildScope``
  /// (see `Sources/LuaFeatures/Lua/lunar/_compose/`).
  func translate(_ description: EffectDescription, action: LuaValue, in path: LuaChildPath? = nil) throws -> Effect<LuaValue> {
    func id(_ value: LuaValue) -> LuaEffectID {
      LuaEffectID(instance: ObjectIdentifier(self), depth: path?.depth ?? 0, value: value)
    }
    func sent(_ sending: EffectDescription.Sending) throws -> LuaValue {
      try declared(path?.wrap(sending.action) ?? sending.action, origin: sending.origin, action)
    }
    switch description {
    case .none:
      return .none
    case let .send(sending):
      return .send(try sent(sending))
    case let .run(handle, origin):
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
    case let .merge(members):
      return .merge(try members.map { try translate($0, action: action, in: path) })
    case let .concat(members):
      return .concatenate(try members.map { try translate($0, action: action, in: path) })
    case let .cancellable(value, cancelInFlight, inner):
      return try translate(inner, action: action, in: path).cancellable(id: id(value), cancelInFlight: cancelInFlight)
    case let .cancel(value):
      return .cancel(id: id(value))
    case let .debounce(timed):
      @Dependency(\.continuousClock) var clock
      let origin = EffectOrigin(label: timed.sending.origin.stringValue ?? feature.origin)
      return Effect.send(try sent(timed.sending)).debounce(id: id(timed.id), for: timed.duration, clock: clock, origin: origin)
    case let .throttle(timed, latest):
      @Dependency(\.continuousClock) var clock
      return Effect.send(try sent(timed.sending))
        .throttle(id: id(timed.id), for: timed.duration, clock: clock, latest: latest)
    case let .child(child, inner):
      let effect = try translate(
        inner, action: action,
        in: (path ?? LuaChildPath()).appending(key: child.key, id: child.id, presents: child.presented))
      return effect.scoped(to: LuaChildScope(instance: ObjectIdentifier(self), key: child.key, identity: child.identity))
    case let .cancelChild(key, identity):
      return .cancel(scope: LuaChildScope(instance: ObjectIdentifier(self), key: key, identity: identity))
    case .dismiss:
      @Dependency(\.luaRootDismissal) var rootDismissal
      if path == nil, rootDismissal {
        // NB: the test store that runs the feature ends when its root dismisses itself.
        return .run { _ in await DismissEffect()() }
      }
      guard let dismissal = path?.dismissal else {
        throw malformed(
          "fx.dismiss() closes a presented child, but \(feature.name) is not presented: return it from a feature "
            + "that a parent runs with lunar.ifLet or lunar.stack", action)
      }
      return .send(dismissal)
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
