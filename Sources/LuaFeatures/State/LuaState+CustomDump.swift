import ComposableTesting
import CustomDump
import LuaBridge

// NB: Lua state and actions are dumped in the notation a Lua author writes them in (LuaNotation),
//     in a Swift `TestStore`'s failures as in a Lua test's. Inside a Swift value, custom-dump shows
//     the Lua text whole on each side of a difference; at the top of a failure (the state of a Lua
//     feature, its actions) the difference is LuaNotation's, a line per changed entry.

extension LuaState: CustomDumpStringConvertible, CustomTestDiff {
  /// The state as a Lua table, over several lines when long: `{ count = 1, title = "milk" }`.
  public var customDumpDescription: String { LuaNotation.block.text(storage) }

  package func testDiff(from expected: LuaState) -> String? {
    LuaNotation.block.diff(expected.storage, storage, markers: .proportional)
  }
}

extension LuaValue: CustomDumpStringConvertible, CustomTestDiff {
  /// The value as Lua source, over several lines when long: `{ type = "add", title = "milk" }`.
  public var customDumpDescription: String { LuaNotation.block.text(self) }

  package func testDiff(from expected: LuaValue) -> String? {
    LuaNotation.block.diff(expected, self, markers: .proportional)
  }
}
