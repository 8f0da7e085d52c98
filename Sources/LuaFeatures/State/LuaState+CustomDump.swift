import CustomDump
import LuaBridge

extension LuaState: CustomDumpReflectable {
  /// Dumps and diffs read like Lua data: tables by key (sorted), arrays by 1-based index.
  public var customDumpMirror: Mirror { DumpNode.mirror(of: storage) }
}

/// A keyed table in a dump: `Table(count: 1, title: "milk")`.
struct Table: CustomDumpReflectable {
  let fields: [(String, LuaValue)]
  var customDumpMirror: Mirror {
    Mirror(self, children: fields.map { (label: $0.0, value: DumpNode.node(for: $0.1)) }, displayStyle: .struct)
  }
}

/// An array in a dump: `[1: "a", 2: "b"]`.
struct List: CustomDumpReflectable {
  let elements: [LuaValue]
  var customDumpMirror: Mirror {
    Mirror(
      self,
      children: elements.enumerated().map { (label: String?.none, value: (key: $0.offset + 1, value: DumpNode.node(for: $0.element)) as Any) },
      displayStyle: .dictionary
    )
  }
}

/// Lua's `nil` in a dump.
struct LuaNil: CustomDumpStringConvertible {
  var customDumpDescription: String { "nil" }
}

enum DumpNode {
  static func node(for value: LuaValue) -> Any {
    switch value {
    case .nil: return LuaNil()
    case let .boolean(bool): return bool
    case let .integer(integer): return integer
    case let .number(number): return number
    case let .string(string): return string.string ?? string.lossyString
    case let .array(elements): return List(elements: elements)
    case let .table(fields):
      return Table(fields: fields.map { ($0.key.lossyString, $0.value) }.sorted { $0.0 < $1.0 })
    }
  }

  static func mirror(of value: LuaValue) -> Mirror {
    switch node(for: value) {
    case let table as Table: return table.customDumpMirror
    case let list as List: return list.customDumpMirror
    case let other: return Mirror(reflecting: other)
    }
  }
}

// NB: actions are bare `LuaValue`s: without this, a test failure listing unhandled actions dumps
//     their `LuaString` bytes one by one.
extension LuaValue: CustomDumpRepresentable {
  /// Dumps read like Lua data, as for ``LuaState``: `Table(type: "increment")`.
  public var customDumpValue: Any { DumpNode.node(for: self) }
}
