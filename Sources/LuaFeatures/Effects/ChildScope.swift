import Composable
import LuaBridge

/// The cancellation scope of one child of a composed Lua feature: the parent's instance, the
/// child's state key (`"todos"`) and its identity (an element id, a presented child's `id`, or
/// nil). Child effects run `Effect.scoped(to:)` it, so ids inside are the child's own, and
/// `Effect.cancel(scope:)` with it ends everything the child started.
struct LuaChildScope: Hashable, Sendable {
  /// NB: two instances of a composed feature can share a store: their children must not meet.
  let instance: ObjectIdentifier
  let key: LuaValue
  let identity: LuaValue
}

/// Where a child's effect runs, seen from the root feature: how to wrap the actions it sends, and
/// what `fx.dismiss()` sends.
struct LuaChildPath: Sendable {
  /// One level of composition: the parent's state key and, for `forEach` and `stack`, the id.
  struct Level: Sendable {
    let key: LuaValue
    let id: LuaValue
  }

  private(set) var levels: [Level] = []
  /// How deep the child is: 1 for a child of the root.
  var depth: Int { levels.count }
  /// The dismiss action of the nearest presenting parent, wrapped for the root: `{ type = "detail",
  /// action = { type = "dismiss" } }` for `ifLet`, `{ type = "path", action = { type = "popFrom",
  /// id = 3 } }` for a stack entry.
  private(set) var dismissal: LuaValue?

  /// `action` as the root receives it: `{ type = "todos", id = 3, action = action }`, level by level.
  func wrap(_ action: LuaValue) -> LuaValue {
    var result = action
    for level in levels.reversed() {
      var fields: [LuaString: LuaValue] = [Self.type: level.key, Self.action: result]
      if !level.id.isNil { fields[Self.id] = level.id }
      result = .table(fields)
    }
    return result
  }

  /// The path one level deeper; `presents` for `ifLet` and `stack`, whose children can dismiss.
  func appending(key: LuaValue, id: LuaValue, presents: Bool) -> LuaChildPath {
    var next = self
    next.levels.append(Level(key: key, id: id))
    if presents, id.isNil {
      next.dismissal = next.wrap(.table([Self.type: .text("dismiss")]))
    } else if presents {
      // NB: a stack entry dismissing itself asks its stack to pop it, as TCA's `.popFrom(id:)`.
      next.dismissal = wrap(.table([Self.type: key, Self.action: .table([Self.type: .text("popFrom"), Self.id: id])]))
    }
    return next
  }

  private static let type = LuaString("type")
  private static let action = LuaString("action")
  private static let id = LuaString("id")
}
