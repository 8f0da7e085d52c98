import LuaBridge
import LuaFeatures

/// The Lua statements that turn one state into another, as a test's expectation writes them:
/// `state.count = 2`, `state.todos[3] = {…}`, `state.editing = nil`.
///
/// ```swift
/// StateAssignments.lines(from: ["count": 1], to: ["count": 2, "fact": "…"])
/// // ["state.count = 2", "state.fact = \"…\""]
/// ```
///
/// Only what differs is written, as deep as it can be: an unchanged row of a long list is not
/// repeated. An array that grew or shrank at its end gets its new elements (or `nil`s, last first);
/// one changed elsewhere is written whole. Integers and floats of equal value are equal, as Lua
/// compares them.
enum StateAssignments {
  static func lines(from before: LuaValue, to after: LuaValue, root: String = "state") -> [String] {
    var lines: [String] = []
    assign(before, after, path: [], root: root, into: &lines)
    return lines
  }

  private static func assign(_ before: LuaValue, _ after: LuaValue, path: [LuaValue], root: String, into lines: inout [String]) {
    if LuaState(before) == LuaState(after) { return }
    let target = LuaSource.path(path, root: root)
    func set(_ value: LuaValue) {
      lines.append(target + " = " + LuaNotation.block.text(value))
    }
    switch (before, after) {
    case let (.table(old), .table(new)):
      for key in Set(old.keys).union(new.keys).sorted() {
        let keyPath = path + [.string(key)]
        switch (old[key], new[key]) {
        case let (was?, now?): assign(was, now, path: keyPath, root: root, into: &lines)
        case (_?, nil): lines.append(LuaSource.path(keyPath, root: root) + " = nil")
        case let (nil, now?): lines.append(LuaSource.path(keyPath, root: root) + " = " + LuaNotation.block.text(now))
        case (nil, nil): break
        }
      }
    case let (.array(old), .array(new)):
      let common = min(old.count, new.count)
      let prefixEqual = zip(old.prefix(common), new.prefix(common)).allSatisfy { LuaState($0) == LuaState($1) }
      // NB: element by element when the length is kept or only the end moved; otherwise (an
      //     element removed in the middle) the whole array says it more plainly than shifts.
      guard old.count == new.count || prefixEqual else { return set(after) }
      for index in 0..<common {
        assign(old[index], new[index], path: path + [.integer(Int64(index + 1))], root: root, into: &lines)
      }
      for index in common..<max(common, new.count) {
        lines.append(LuaSource.path(path + [.integer(Int64(index + 1))], root: root) + " = " + LuaNotation.block.text(new[index]))
      }
      for index in (common..<max(common, old.count)).reversed() {
        lines.append(LuaSource.path(path + [.integer(Int64(index + 1))], root: root) + " = nil")
      }
    case (.array(let old), .table(let new)) where old.isEmpty && !path.isEmpty:
      // NB: `{}` reads as an empty array; fields added to it are fields like any.
      for key in new.keys.sorted() {
        lines.append(LuaSource.path(path + [.string(key)], root: root) + " = " + LuaNotation.block.text(new[key]!))
      }
    case (.table(let old), .array(let new)) where old.isEmpty && !path.isEmpty:
      for (index, element) in new.enumerated() {
        lines.append(LuaSource.path(path + [.integer(Int64(index + 1))], root: root) + " = " + LuaNotation.block.text(element))
      }
    default:
      if path.isEmpty {
        lines.append("return " + LuaNotation.block.text(after))
      } else {
        set(after)
      }
    }
  }
}
