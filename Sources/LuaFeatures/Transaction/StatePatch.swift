import LuaBridge

/// One write the reducer made, as the journal reports it: `path[key] = value`.
struct StateChange {
  /// The keys from the root of the state to the written table.
  var path: [LuaValue]
  var key: LuaValue
  /// The final value at `path[key]`, read after the reducer returned.
  var value: LuaValue
}

/// How to bring a snapshot up to date: computed before anything is changed (reading from Lua can
/// fail), then applied, which cannot.
enum StatePatch {
  /// Set (or, for `.nil`, remove) one key of a keyed table.
  case setField(path: [LuaValue], key: LuaString, value: LuaValue)
  /// Set an element of an array in place (0-based).
  case setElement(path: [LuaValue], index: Int, value: LuaValue)
  /// Append to an array; `position` is the new element's (from 1).
  case append(path: [LuaValue], position: Int64, value: LuaValue)
  /// Remove an array's last element, at `position` (from 1).
  case removeLast(path: [LuaValue], position: Int64)
  /// Replace the value at `path` with a fresh read of it (the shape changed: an array grew a hole,
  /// a keyed table got integer keys, …).
  case replace(path: [LuaValue])
  /// Replace the whole state with a fresh read.
  case replaceAll

  var path: [LuaValue] {
    switch self {
    case let .setField(path, _, _), let .setElement(path, _, _), let .append(path, _, _),
      let .removeLast(path, _), let .replace(path):
      return path
    case .replaceAll:
      return []
    }
  }

  /// Plans the patches for `changes` against `snapshot`. Changes inside the subtree of another
  /// change are dropped: the outer change's final value already holds them.
  static func plan(_ changes: [StateChange], on snapshot: LuaValue) -> [StatePatch] {
    // NB: one write (a child's field, the common composed action) needs no covering or dedup.
    if changes.count == 1 { return patch(for: changes[0], on: snapshot).map { [$0] } ?? [.replaceAll] }
    // NB: prefix lookups in a set keep this linear in the number of changes times their depth:
    //     `table.sort` on a long array journals one write per element.
    let written = Set(changes.map { $0.path + [$0.key] })
    var patches: [StatePatch] = []
    for change in changes {
      let covered = (1...change.path.count + 1).dropLast().contains { length in
        written.contains(Array(change.path.prefix(length)))
      }
      if covered { continue }
      guard let patch = patch(for: change, on: snapshot) else { return [.replaceAll] }
      patches.append(patch)
    }
    // NB: a container that is re-read whole already includes the other writes inside it.
    let replaced = patches.compactMap { patch -> [LuaValue]? in
      if case let .replace(path) = patch { return path }
      return nil
    }
    guard !replaced.isEmpty else { return patches }
    let replacedSet = Set(replaced)
    func isInsideReplaced(_ path: [LuaValue], strictly: Bool) -> Bool {
      let lengths = strictly ? Array(0..<path.count) : Array(0...path.count)
      return lengths.contains { replacedSet.contains(Array(path.prefix($0))) }
    }
    var result: [StatePatch] = []
    var seen: Set<[LuaValue]> = []
    for patch in patches {
      if case let .replace(path) = patch {
        if isInsideReplaced(path, strictly: true) { continue }
        if seen.insert(path).inserted { result.append(patch) }
      } else if !isInsideReplaced(patch.path, strictly: false) {
        result.append(patch)
      }
    }
    return result
  }

  /// Plans changes that cannot interfere — no table put or removed, no key twice — each on its
  /// own; `nil` when one of them changes an array's length or shape (the general planner
  /// orders those).
  static func planIndependent(_ changes: [StateChange], on snapshot: LuaValue) -> [(StatePatch, LuaValue?)]? {
    var patches: [(StatePatch, LuaValue?)] = []
    patches.reserveCapacity(changes.count)
    for change in changes {
      guard let patch = patch(for: change, on: snapshot) else { return nil }
      switch patch {
      case .setField, .setElement: patches.append((patch, nil))
      default: return nil
      }
    }
    return patches
  }

  private static func patch(for change: StateChange, on snapshot: LuaValue) -> StatePatch? {
    guard let container = snapshot.value(at: change.path) else { return nil }
    switch (container, change.key) {
    case let (.table(fields), .string(key)):
      // NB: removing a field can change the table's shape: a mixed table whose last string key goes
      //     reads as an array, and an emptied one depends on LuaBridge's empty-array marker.
      if change.value.isNil, fields[key] != nil,
        !fields.keys.contains(where: { $0 != key && !$0.isDecimalInteger })
      {
        return .replace(path: change.path)
      }
      return .setField(path: change.path, key: key, value: change.value)
    case let (.array(elements), .integer(position)):
      let count = Int64(elements.count)
      if change.value.isNil {
        // NB: emptying an array is a re-read: an empty Lua table reads as `.table([:])` unless it
        //     carries LuaBridge's empty-array marker, which only the resident table knows about.
        if position == count, count > 1, !elements[elements.count - 2].isNil {
          return .removeLast(path: change.path, position: position)
        }
        return .replace(path: change.path)
      }
      if position >= 1, position <= count {
        return .setElement(path: change.path, index: Int(position - 1), value: change.value)
      }
      if position == count + 1 {
        return .append(path: change.path, position: position, value: change.value)
      }
      return .replace(path: change.path)
    case (.table, _), (.array, _):
      return .replace(path: change.path)
    default:
      return nil
    }
  }
}

extension LuaValue {
  /// The value at `path` (keys from the root), when every step exists.
  func value(at path: [LuaValue]) -> LuaValue? {
    var current = self
    for key in path {
      switch (current, key) {
      case let (.table(fields), .string(name)):
        guard let next = fields[name] else { return nil }
        current = next
      case let (.array(elements), .integer(position)):
        guard position >= 1, position <= Int64(elements.count) else { return nil }
        current = elements[Int(position - 1)]
      default:
        return nil
      }
    }
    return current
  }

  /// Mutates the value at `path` in place, without copying the containers on the way (each is
  /// taken out of its parent while it is changed, so it stays uniquely referenced).
  mutating func modify(at path: ArraySlice<LuaValue>, _ body: (inout LuaValue) -> Void) {
    guard let key = path.first else { return body(&self) }
    // NB: no `switch (self, key)`: the tuple would hold a second reference to the container for
    //     the whole case, and every patch would copy it (a 1,000-row array per action).
    switch key {
    case let .string(name):
      guard case var .table(fields) = self else { return }
      self = .nil
      if fields[name] != nil { fields[name]!.modify(at: path.dropFirst(), body) }
      self = .table(fields)
    case let .integer(position):
      guard case var .array(elements) = self else { return }
      self = .nil
      let index = Int(position - 1)
      if elements.indices.contains(index) { elements[index].modify(at: path.dropFirst(), body) }
      self = .array(elements)
    default:
      break
    }
  }

  /// Sets `key` of this keyed table to `value` (not nil) in place; `false` when this is not one.
  /// `previous` receives what the key held (nil when it was absent).
  mutating func setRootField(_ key: LuaString, to value: LuaValue, previous: inout LuaValue?) -> Bool {
    guard case var .table(fields) = self else { return false }
    self = .nil  // NB: so that `fields` is the only reference, and is not copied
    // NB: an existing key is found without giving the dictionary a copy of it.
    if let index = fields.index(forKey: key) {
      previous = fields.values[index]
      fields.values[index] = value
    } else {
      previous = nil
      fields[key] = value
    }
    self = .table(fields)
    return true
  }

  /// Sets `key` of the keyed table at `path` to `value` (not nil); `false` when there is none, and
  /// then nothing changed. One walk down the path, changing each container in place (the hot path
  /// of an action). `previous` receives what the key held.
  mutating func setField(
    at path: ArraySlice<LuaValue>, _ key: LuaString, to value: LuaValue, previous: inout LuaValue?
  ) -> Bool {
    guard let first = path.first else { return setRootField(key, to: value, previous: &previous) }
    switch first {
    case let .string(name):
      guard case var .table(fields) = self, let index = fields.index(forKey: name) else { return false }
      self = .nil  // NB: as in `modify(at:)`: `fields` stays the only reference
      let done = fields.values[index].setField(at: path.dropFirst(), key, to: value, previous: &previous)
      self = .table(fields)
      return done
    case let .integer(position):
      guard case var .array(elements) = self, position >= 1, position <= Int64(elements.count) else { return false }
      self = .nil
      let done = elements[Int(position - 1)].setField(at: path.dropFirst(), key, to: value, previous: &previous)
      self = .array(elements)
      return done
    default:
      return false
    }
  }

  /// Applies an action's `changes` in place when each one sets a key of a keyed table to a value
  /// (the commonest action: a few fields, of the root or of a row), and returns true; otherwise
  /// changes nothing and returns false, for the caller to plan them. What was applied is the
  /// changes themselves, as `.setField` patches in order.
  ///
  /// The changes must be independent (no table put or removed, no key written twice: the report
  /// says so), as for ``StatePatch/planIndependent(_:on:)``, whose work this skips: each change is
  /// found once, where planning then applying looked its path up twice.
  mutating func setFields(_ changes: [StateChange]) -> Bool {
    // NB: the values replaced, kept to undo a failed run, on the stack: this runs for every action
    //     of a store whose state is read, and two arrays a call were a tenth of the patch's cost.
    withUnsafeTemporaryAllocation(of: LuaValue?.self, capacity: changes.count) { previous in
      var applied = 0
      defer { _ = previous.baseAddress.map { $0.deinitialize(count: applied) } }
      for change in changes {
        var old: LuaValue? = nil
        guard case let .string(key) = change.key, !change.value.isNil,
          setField(at: change.path[...], key, to: change.value, previous: &old)
        else {
          // NB: undone newest first, so that the caller plans on the state as it was.
          for index in (0..<applied).reversed() {
            guard case let .string(key) = changes[index].key else { continue }
            let path = changes[index].path
            var ignored: LuaValue? = nil
            if let old = previous[index] {
              _ = setField(at: path[...], key, to: old, previous: &ignored)
            } else {
              apply(.setField(path: path, key: key, value: .nil), reread: nil)
            }
          }
          return false
        }
        previous.initializeElement(at: applied, to: old)
        applied += 1
      }
      return true
    }
  }

  /// Applies a planned patch; `reread` holds the fresh values of `.replace` paths.
  mutating func apply(_ patch: StatePatch, reread: LuaValue?) {
    switch patch {
    case let .setField(path, key, value):
      // NB: a value set in place, each key on the way found once (the closure of `modify` looks
      //     the path up twice per level): the commonest patch, a field of a row or of the root.
      var previous: LuaValue? = nil
      if !value.isNil, setField(at: path[...], key, to: value, previous: &previous) { return }
      modify(at: path[...]) { container in
        guard case var .table(fields) = container else { return }
        container = .nil
        // NB: `LuaValue` is ExpressibleByNilLiteral: assigning `nil` would store `.nil`, not remove.
        if value.isNil { fields.removeValue(forKey: key) } else { fields[key] = value }
        container = .table(fields)
      }
    case let .setElement(path, index, value):
      modify(at: path[...]) { container in
        guard case var .array(elements) = container else { return }
        container = .nil
        elements[index] = value
        container = .array(elements)
      }
    case let .append(path, _, value):
      modify(at: path[...]) { container in
        guard case var .array(elements) = container else { return }
        container = .nil
        elements.append(value)
        container = .array(elements)
      }
    case let .removeLast(path, _):
      modify(at: path[...]) { container in
        guard case var .array(elements) = container else { return }
        container = .nil
        elements.removeLast()
        container = .array(elements)
      }
    case let .replace(path):
      modify(at: path[...]) { $0 = reread ?? .nil }
    case .replaceAll:
      self = reread ?? .nil
    }
  }
}

extension LuaString {
  /// Whether this key is how a mixed table's integer key reads (`"12"`, `"-3"`).
  var isDecimalInteger: Bool {
    guard let text = string, let integer = Int64(text) else { return false }
    return String(integer) == text
  }
}

extension LuaString {
  /// Whether the key starts with a digit: such keys can stand for a mixed table's integer keys,
  /// which only the general patch planner handles.
  var looksLikeIndex: Bool {
    bytes.first.map { (48...57).contains($0) } ?? false
  }
}
