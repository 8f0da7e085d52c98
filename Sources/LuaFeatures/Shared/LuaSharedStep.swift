import LuaBridge

/// One step of the path from the root of a composed state to a child's shared field: a field
/// (`lunar.scope`, `lunar.ifLet`, a stack entry's `state`), every element of an array
/// (`lunar.forEach`; for `lunar.stack`, the entries whose `screen` is the destination declaring it),
/// or a `lunar.destination` field while it presents the case declaring it.
enum LuaSharedStep: Hashable, Sendable {
  case key(LuaString)
  case each(screen: LuaString?)
  /// The field `key` while it presents the case `screen` (`lunar.destination`).
  case presented(key: LuaString, screen: LuaString)

  /// Reads the prelude's path: strings, `{ each = true [, screen = name] }`, and `{ key = key,
  /// screen = name }`.
  static func parse(_ value: LuaValue) -> [LuaSharedStep]? {
    switch value {
    case .nil: return []
    case let .table(fields) where fields.isEmpty: return []
    case let .array(steps):
      var path: [LuaSharedStep] = []
      for step in steps {
        switch step {
        case let .string(key): path.append(.key(key))
        case .table where step[LuaString("each")].isNil:
          guard case let .string(key) = step[LuaString("key")], case let .string(screen) = step[LuaString("screen")]
          else { return nil }
          path.append(.presented(key: key, screen: screen))
        case .table where step[LuaString("each")].boolValue == true:
          if case let .string(screen) = step[LuaString("screen")] {
            path.append(.each(screen: screen))
          } else {
            path.append(.each(screen: nil))
          }
        default: return nil
        }
      }
      return path
    default: return nil
    }
  }
}

extension LuaSharedField {
  /// The paths from the root of `state` of every place this field is now: one for a field of the
  /// root or of a scoped child, none for an absent child, one per element of a list.
  func locations(in state: LuaValue) -> [[LuaValue]] {
    var found: [[LuaValue]] = []
    Self.walk(path[...], from: state, at: [], field: field, into: &found)
    return found
  }

  /// The places under `prefix` (a path that `path` continues) whose value is `value`.
  func locations(under prefix: [LuaValue], value: LuaValue) -> [[LuaValue]] {
    var found: [[LuaValue]] = []
    Self.walk(path.dropFirst(prefix.count), from: value, at: prefix, field: field, into: &found)
    return found
  }

  private static func walk(
    _ steps: ArraySlice<LuaSharedStep>, from value: LuaValue, at location: [LuaValue], field: LuaString,
    into found: inout [[LuaValue]]
  ) {
    guard let step = steps.first else {
      if case .table = value { found.append(location + [.string(field)]) }
      return
    }
    switch (step, value) {
    case let (.key(key), .table(fields)):
      if let next = fields[key] { walk(steps.dropFirst(), from: next, at: location + [.string(key)], field: field, into: &found) }
    case let (.presented(key, screen), .table(fields)):
      if let next = fields[key], next[LuaString("screen")] == .string(screen) {
        walk(steps.dropFirst(), from: next, at: location + [.string(key)], field: field, into: &found)
      }
    case let (.each(screen), .array(elements)):
      for (index, element) in elements.enumerated() {
        if let screen, element[LuaString("screen")] != .string(screen) { continue }
        walk(steps.dropFirst(), from: element, at: location + [.integer(Int64(index + 1))], field: field, into: &found)
      }
    default:
      return
    }
  }

  /// How a write at `written` (a path from the root; `state` is the state after it) reaches this
  /// field: `.wrote(location)` when it is inside (or is) one of its places, `.placed(prefix)` when
  /// it replaced a table above it (a child presented, a row added), `nil` when it does not.
  func reach(of written: [LuaValue], in state: LuaValue) -> LuaSharedReach? {
    let full = path.count + 1
    for (position, key) in written.prefix(full).enumerated() {
      let step: LuaSharedStep = position == path.count ? .key(field) : path[position]
      switch (step, key) {
      case let (.key(name), .string(written)) where name == written:
        continue
      case let (.presented(name, screen), .string(key)) where name == key:
        let presented = state.value(at: Array(written.prefix(position + 1)))
        if presented?[LuaString("screen")] == .string(screen) { continue }
        return nil
      case let (.each(screen), .integer):
        guard let screen else { continue }
        let entry = state.value(at: Array(written.prefix(position + 1)))
        if entry?[LuaString("screen")] == .string(screen) { continue }
        return nil
      default:
        return nil
      }
    }
    return written.count >= full ? .wrote(Array(written.prefix(full))) : .placed(written)
  }
}

extension LuaSharedField {
  /// What the place at `location` of `state` holds when in step with `shared`, the key's value:
  /// the value itself, or for an element reference the element of `shared` with the place's `id`
  /// (`nil` when there is none: the place is detached and keeps its value).
  func current(at location: [LuaValue], in state: LuaValue, shared: LuaValue) -> LuaValue? {
    guard element else { return shared }
    guard let id = state.value(at: location)?[LuaString("id")], !id.isNil else { return nil }
    return shared.arrayValue?.first { $0[LuaString("id")].normalizedKey == id.normalizedKey }
  }

  /// `collection` with the element of `value`'s `id` replaced by `value`; `nil` when it has none
  /// (a detached place: its writes stay its own).
  static func replacingElement(of collection: LuaValue, with value: LuaValue) -> LuaValue? {
    let id = value[LuaString("id")].normalizedKey
    guard !id.isNil, var elements = collection.arrayValue,
      let index = elements.firstIndex(where: { $0[LuaString("id")].normalizedKey == id })
    else { return nil }
    elements[index] = value
    return .array(elements)
  }
}

/// How one change of an action reaches a shared field (see ``LuaSharedField/reach(of:in:)``).
enum LuaSharedReach {
  /// The field's value at this place was written: it is published.
  case wrote([LuaValue])
  /// A table above the field was replaced: its places there take the shared value.
  case placed([LuaValue])
}

extension StatePatch {
  /// The path of what the patch writes, from the root (`[]` for the whole state).
  var writtenPath: [LuaValue] {
    switch self {
    case let .setField(path, key, _): path + [.string(key)]
    case let .setElement(path, index, _): path + [.integer(Int64(index + 1))]
    case let .append(path, position, _), let .removeLast(path, position): path + [.integer(position)]
    case let .replace(path): path
    case .replaceAll: []
    }
  }
}
