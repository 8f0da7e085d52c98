import LuaBridge

/// One change an action made to a Lua feature's state: the value now at `path`.
///
/// ```swift
/// store.send(["type": "increment"])
/// reducer.lastChanges   // [LuaStateChange(path: ["count"], value: 1)]
/// ```
///
/// `path` holds the keys from the root of the state (strings, and integers for array elements,
/// from 1); `value` is `.nil` for a removed key. A change that reshaped a table (an array that
/// grew a hole, a table replaced whole) is reported as the whole table at its path, and the
/// changes inside it are not repeated.
public struct LuaStateChange: Equatable, Sendable, CustomStringConvertible {
  /// The keys from the root of the state to the changed value.
  public var path: [LuaValue]
  /// The value now at `path`; `.nil` when the key was removed.
  public var value: LuaValue

  /// A change of the value at `path`.
  public init(path: [LuaValue], value: LuaValue) {
    self.path = path
    self.value = value
  }

  public var description: String {
    let keys = path.map { key -> String in
      if case let .integer(index) = key { return "[\(index)]" }
      return "." + (key.stringValue ?? key.description)
    }
    return "state" + keys.joined() + " = " + value.description
  }
}

extension LuaReducer {
  /// The changes the last action this reducer reduced made to the state, as paths and values:
  /// what to show or send instead of the whole state. Empty after an action that changed nothing,
  /// or that failed (its changes were rolled back).
  ///
  /// ```swift
  /// let reducer = counter.reducer()
  /// let store = Store(initialState: counter.initialState) { reducer }
  /// store.send(["type": "increment"])
  /// for change in reducer.lastChanges { print(change) }   // state.count = 1
  /// ```
  ///
  /// It costs little to keep: the changes are those the store's copy of the state was patched with;
  /// while the state is a view of the table in Lua (nothing read it), a table an action put is read
  /// from there when this is asked for.
  ///
  /// > Important: It describes this reducer's last action only: read it right after the action
  /// > (in an observing reducer, or after `send`), before the next one.
  @MainActor public var lastChanges: [LuaStateChange] { instance.replica.lastChanges }
}
