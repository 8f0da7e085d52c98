/// The signs starting each line of a ``LuaNotation`` diff.
public struct DiffMarkers: Sendable {
  /// Starts a line of the old value only.
  public var removed: String
  /// Starts a line of the new value only.
  public var added: String
  /// Starts a line both values share.
  public var unchanged: String

  public init(removed: String, added: String, unchanged: String) {
    self.removed = removed
    self.added = added
    self.unchanged = unchanged
  }

  /// `-`, `+` and a space, for a terminal's fixed-width font.
  public static let ascii = DiffMarkers(removed: "-", added: "+", unchanged: " ")
  /// `−` (minus sign), `+` and a figure space: as wide as each other in a proportional font too
  /// (test failures, as custom-dump writes them).
  public static let proportional = DiffMarkers(removed: "\u{2212}", added: "+", unchanged: "\u{2007}")
}

extension LuaNotation {
  /// What changed from `old` to `new`, in this notation, a line per changed entry, each line
  /// starting with its marker and a space. The tables that hold a change are opened (whatever
  /// ``depth`` says); every other value is written as ``text(_:)`` would, except that an unchanged
  /// table longer than a line shows as `{…}` and a run of more than two unchanged array elements
  /// as `… (5 unchanged)`. Array elements are matched in order (an insertion shifts nothing); an
  /// element replaced by another table is opened. `nil` when the values are equal.
  ///
  /// ```swift
  /// LuaNotation.block.diff(["count": 0, "loading": false], ["count": 1, "loading": false])
  /// //   {
  /// // -   count = 0,
  /// // +   count = 1,
  /// //     loading = false,
  /// //   }
  /// ```
  public func diff(_ old: LuaValue, _ new: LuaValue, markers: DiffMarkers = .ascii) -> String? {
    guard old != new else { return nil }
    var diff = EntryDiff(notation: self, markers: markers)
    diff.compare(old, new, at: Place(lead: "", trail: "", level: 0, indent: ""))
    return diff.lines.joined(separator: "\n")
  }
}

/// Where a value sits in a diff: after its field name (`count = `), before its comma.
private struct Place {
  var lead: String
  var trail: String
  var level: Int
  var indent: String

  /// An entry of the table at this place.
  func entry(_ lead: String) -> Place {
    Place(lead: lead, trail: ",", level: level + 1, indent: indent + "  ")
  }
}

/// The lines of a diff, written as the two values are walked side by side.
private struct EntryDiff {
  let notation: LuaNotation
  let markers: DiffMarkers
  var lines: [String] = []

  init(notation: LuaNotation, markers: DiffMarkers) {
    self.notation = notation
    self.markers = markers
  }

  mutating func compare(_ old: LuaValue, _ new: LuaValue, at place: Place) {
    if old == new { return writeUnchanged(new, at: place) }
    switch (old, new) {
    case let (.table(a), .table(b)):
      open(place) { $0.compareFields(a, b, at: place) }
    case let (.array(a), .array(b)):
      open(place) { $0.compareElements(a, b, at: place) }
    // NB: an empty table reads as either kind; it is compared as the kind of the other.
    case let (.array(a), .table(b)) where a.isEmpty:
      open(place) { $0.compareFields([:], b, at: place) }
    case let (.table(a), .array(b)) where a.isEmpty:
      open(place) { $0.compareElements([], b, at: place) }
    case let (.array(a), .table(b)) where b.isEmpty:
      open(place) { $0.compareElements(a, [], at: place) }
    case let (.table(a), .array(b)) where b.isEmpty:
      open(place) { $0.compareFields(a, [:], at: place) }
    default:
      write(old, at: place, marker: markers.removed)
      write(new, at: place, marker: markers.added)
    }
  }

  private mutating func open(_ place: Place, _ body: (inout EntryDiff) -> Void) {
    lines.append(markers.unchanged + " " + place.indent + place.lead + "{")
    body(&self)
    lines.append(markers.unchanged + " " + place.indent + "}" + place.trail)
  }

  private mutating func compareFields(_ old: [LuaString: LuaValue], _ new: [LuaString: LuaValue], at place: Place) {
    for key in LuaNotation.orderedKeys(old.merging(new) { $1 }) {
      let entry = place.entry(LuaNotation.field(key) + " = ")
      switch (old[key], new[key]) {
      case let (a?, b?): compare(a, b, at: entry)
      case let (a?, nil): write(a, at: entry, marker: markers.removed)
      case let (nil, b?): write(b, at: entry, marker: markers.added)
      case (nil, nil): break
      }
    }
  }

  private mutating func compareElements(_ old: [LuaValue], _ new: [LuaValue], at place: Place) {
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in new.difference(from: old) {
      switch change {
      case let .remove(offset, _, _): removed.insert(offset)
      case let .insert(offset, _, _): inserted.insert(offset)
      }
    }
    let entry = place.entry("")
    var unchanged: [LuaValue] = []
    func flush(_ diff: inout EntryDiff) {
      if unchanged.count > 2 {
        diff.lines.append(diff.markers.unchanged + " " + entry.indent + "… (\(unchanged.count) unchanged)")
      } else {
        for value in unchanged { diff.writeUnchanged(value, at: entry) }
      }
      unchanged = []
    }
    var (i, j) = (0, 0)
    while i < old.count || j < new.count {
      let isRemoved = i < old.count && removed.contains(i)
      let isInserted = j < new.count && inserted.contains(j)
      if isRemoved || isInserted { flush(&self) }
      // NB: an element replaced by another table is opened, so that its changed fields show
      //     rather than two whole tables.
      if isRemoved, isInserted, LuaNotation.entries(old[i]) != nil, LuaNotation.entries(new[j]) != nil {
        compare(old[i], new[j], at: entry)
        (i, j) = (i + 1, j + 1)
      } else if isRemoved {
        write(old[i], at: entry, marker: markers.removed)
        i += 1
      } else if isInserted {
        write(new[j], at: entry, marker: markers.added)
        j += 1
      } else {
        unchanged.append(new[j])
        (i, j) = (i + 1, j + 1)
      }
    }
    flush(&self)
  }

  /// Writes `value`, unchanged, at `place`: whole when it takes one line, `{…}` otherwise, so
  /// that a diff shows what changed rather than what stayed (`:state` shows it all).
  private mutating func writeUnchanged(_ value: LuaValue, at place: Place) {
    var text = ""
    notation.write(value, level: place.level, indent: place.indent, to: &text)
    if text.contains("\n") { text = "{…}" }
    lines.append(markers.unchanged + " " + place.indent + place.lead + text + place.trail)
  }

  /// Writes `value` whole at `place`, each of its lines starting with `marker`.
  private mutating func write(_ value: LuaValue, at place: Place, marker: String) {
    var text = place.indent + place.lead
    notation.write(value, level: place.level, indent: place.indent, to: &text)
    text += place.trail
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append(marker + " " + line)
    }
  }
}
