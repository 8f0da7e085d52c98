import DequeModule
import LuaBridge

/// The latest entries of a session, at most `limit`: the oldest are forgotten first, so a long run
/// keeps a flat memory.
struct DevtoolsHistory {
  let limit: Int
  private(set) var entries: Deque<DevtoolsEntry> = []
  /// How many entries were forgotten in all.
  private(set) var forgotten = 0

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  var last: DevtoolsEntry? { entries.last }

  /// Appends `entry`; returns the entry forgotten to make room, if any.
  @discardableResult
  mutating func append(_ entry: DevtoolsEntry) -> DevtoolsEntry? {
    var dropped: DevtoolsEntry?
    if entries.count == limit {
      dropped = entries.removeFirst()
      forgotten += 1
    }
    entries.append(entry)
    return dropped
  }

  /// The position of the entry numbered `id`, if it is still kept. Ids grow by one, so this is a
  /// subtraction, not a search.
  ///
  /// `id` comes from a page: any integer, `Int.min` included, is answered without a trap.
  func index(of id: Int) -> Int? {
    guard let first = entries.first?.id, let last = entries.last?.id, id >= first, id <= last else { return nil }
    // NB: first <= id <= last, both positive: the difference cannot overflow.
    let index = id - first
    guard entries.indices.contains(index), entries[index].id == id else {
      return entries.firstIndex { $0.id == id }
    }
    return index
  }

  subscript(id id: Int) -> DevtoolsEntry? {
    index(of: id).map { entries[$0] }
  }

  /// The entry before the one numbered `id`, if it is still kept.
  func previous(of id: Int) -> DevtoolsEntry? {
    guard let index = index(of: id), index > 0 else { return nil }
    return entries[index - 1]
  }

  /// Replaces the states of the entries from position `start` on, and their skipped marks.
  mutating func recompute(from start: Int, states: [LuaValue], skipped id: Int, _ isSkipped: Bool) {
    for (offset, state) in states.enumerated() where entries.indices.contains(start + offset) {
      let index = start + offset
      if entries[index].id == id { entries[index].skipped = isSkipped }
      if entries[index].state != state || entries[index].recomputed {
        entries[index].state = state
        entries[index].view = nil
        entries[index].recomputed = true
      }
    }
  }

  mutating func addError(_ error: DevtoolsError, toEntry id: Int) {
    guard let index = index(of: id) else { return }
    entries[index].errors.append(error)
  }
}
