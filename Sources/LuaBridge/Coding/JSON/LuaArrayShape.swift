/// Where the lists of a value are, learned from an example of it (a declared default): what lets
/// an empty Lua table, which reads as `.table([:])`, be written as the empty list `[]` it stands for.
///
/// ```swift
/// let shape = LuaArrayShape(of: ["items": ["a"], "tags": ["x": 1]])
/// let value: LuaValue = ["items": .table([:]), "tags": .table([:])]
/// value.conformingArrays(to: shape!)   // ["items": .array([]), "tags": .table([:])]
/// ```
///
/// - An `.array` in the example is a list at that place, the empty `.array([])` included; the
///   shapes of its elements are merged, so a list inside any element of a list of records counts
///   for every element (`syncUps[i].meetings`).
/// - A non-empty `.table` gives the shapes of its fields; an empty `.table([:])` says nothing (a
///   Lua `{}` may be either). Where two elements disagree (a list in one, a keyed table in the
///   other), the place is left alone.
public indirect enum LuaArrayShape: Sendable, Equatable {
  /// A list; `element` is the shape of its elements, when they hold lists.
  case array(element: LuaArrayShape?)
  /// A keyed table whose fields named here hold lists.
  case table([LuaString: LuaArrayShape])

  /// The shape of `example`; `nil` when it holds no list.
  public init?(of example: LuaValue) {
    guard let shape = Self.shape(of: example), shape.hasList else { return nil }
    self = shape
  }

  /// The shape of one place: `nil` for a scalar or an empty table (which say nothing), `.table`
  /// for a keyed table even without lists (so that it disagrees with a list at the same place).
  private static func shape(of example: LuaValue) -> LuaArrayShape? {
    switch example {
    case let .array(elements):
      return .array(element: merged(elements.lazy.map(shape(of:))))
    case let .table(fields):
      guard !fields.isEmpty else { return nil }
      var shapes: [LuaString: LuaArrayShape] = [:]
      for (key, value) in fields {
        if let shape = shape(of: value) { shapes[key] = shape }
      }
      return .table(shapes)
    default:
      return nil
    }
  }

  /// Whether a list is somewhere in this shape.
  private var hasList: Bool {
    switch self {
    case .array: true
    case let .table(fields): fields.values.contains { $0.hasList }
    }
  }

  /// The shapes of several examples of one place, merged; `nil` when none holds a list.
  private static func merged(_ shapes: some Sequence<LuaArrayShape?>) -> LuaArrayShape? {
    var result: LuaArrayShape?
    var conflict = false
    for case let shape? in shapes {
      guard let current = result else {
        result = shape
        continue
      }
      switch current.merging(shape) {
      case let merged?: result = merged
      case nil: conflict = true
      }
    }
    return conflict ? nil : result
  }

  /// Both shapes of one place at once; `nil` when one says list and the other keyed table.
  private func merging(_ other: LuaArrayShape) -> LuaArrayShape? {
    switch (self, other) {
    case let (.array(a), .array(b)):
      guard let a, let b else { return .array(element: a ?? b) }
      return a.merging(b).map { .array(element: $0) } ?? .array(element: nil)
    case let (.table(a), .table(b)):
      var fields = a
      for (key, shape) in b {
        guard let existing = fields[key] else {
          fields[key] = shape
          continue
        }
        fields[key] = existing.merging(shape)
      }
      return .table(fields)
    default:
      return nil
    }
  }
}

extension LuaValue {
  /// This value with every empty `.table([:])` that stands where `shape` has a list made the
  /// empty `.array([])`: written to JSON as `[]`, and pushed into Lua as a marked list. Anything
  /// else is unchanged (a non-empty table where a list is expected stays what it is).
  public func conformingArrays(to shape: LuaArrayShape) -> LuaValue {
    switch (self, shape) {
    case let (.table(fields), .array):
      return fields.isEmpty ? .array([]) : self
    case let (.array(elements), .array(element?)):
      var conformed = elements
      for index in conformed.indices { conformed[index] = conformed[index].conformingArrays(to: element) }
      return .array(conformed)
    case let (.table(fields), .table(shapes)):
      var conformed = fields
      for (key, fieldShape) in shapes {
        guard let value = fields[key] else { continue }
        conformed[key] = value.conformingArrays(to: fieldShape)
      }
      return .table(conformed)
    default:
      return self
    }
  }
}
