import ComposableTesting
import LuaFeatures
import Testing

/// Actions a Swift store sends to a Lua feature that declares its actions pass the gate of every
/// other entry (``LuaFeature/problem(with:)``): a refused one is reported with the same message and
/// not reduced.
@MainActor
struct SwiftEntryGateTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Notes",
      initial = { notes = {}, count = 0 },
      actions = { add = { title = "string" }, bump = { by = "integer?" } },
      reduce = function(state, action)
        if action.type == "add" then
          state.notes[#state.notes + 1] = action.title
          state.count = #state.notes
        elseif action.type == "bump" then
          state.count = state.count + (action.by or 1)
        end
      end,
    }
    """

  func makeStore() throws -> (Store<LuaState, LuaValue>, LockIsolated<[String]>) {
    let host = try LuaFeatureHost()
    let errors = LockIsolated<[String]>([])
    host.onError = { error in errors.withValue { $0.append(error.description) } }
    let feature = try host.load(source: Self.source, chunkName: "notes.lua")
    return (Store(initialState: feature.initialState) { feature.reducer() }, errors)
  }

  @Test func aMisspelledTypeFromSwiftIsRefusedWithTheNearestDeclaredOne() throws {
    let (store, errors) = try makeStore()
    let before = store.state
    store.send(["type": "ad", "title": "milk"])
    #expect(store.state == before)
    #expect(errors.value == [
      """
      error: Notes: unknown action "ad" (did you mean "add"?); Notes declares add, bump
        while reducing: { type = "ad", title = "milk" }
        state left unchanged
      """
    ])
  }

  @Test func aMissingFieldFromSwiftDoesNotRunTheReducer() throws {
    let (store, errors) = try makeStore()
    let before = store.state
    store.send(["type": "add"])
    #expect(store.state == before)
    #expect(errors.value.first?.hasPrefix(#"error: Notes: action "add" needs its field "title" (a string)"#) == true, "\(errors.value)")
  }

  @Test func anAcceptedShapeDoesNotLetAMistypedValueThrough() throws {
    let (store, errors) = try makeStore()
    store.send(["type": "bump", "by": 2])
    store.send(["type": "bump", "by": 3])
    store.send(["type": "bump", "by": .number(1.5)])
    store.send(["type": "bump"])
    #expect(store.state.count == 6)
    store.send(["type": "add", "title": "milk"])
    store.send(["type": "add", "title": 7])
    #expect(store.state.notes == ["milk"])
    #expect(errors.value.count == 2, "\(errors.value)")
    #expect(errors.value.first?.contains(#"action "bump": field "by" must be an integer, got number 1.5"#) == true, "\(errors.value)")
    #expect(errors.value.last?.contains(#"action "add": field "title" must be a string, got number 7"#) == true, "\(errors.value)")
  }

  @Test func aTestStoreSendOfAnUndeclaredActionFailsAtItsLine() async throws {
    let feature = try LuaFeatureHost().load(source: Self.source, chunkName: "notes.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    let issues = LockIsolated<[(Int, String)]>([])
    let sendLine = #line + 2
    await withKnownIssue {
      await store.send(["type": "bumb"])
    } matching: { issue in
      issues.withValue { $0.append((issue.sourceLocation?.line ?? 0, issue.comments.map(\.rawValue).joined())) }
      return true
    }
    #expect(issues.value.map(\.0) == [sendLine])
    #expect(issues.value.first?.1.contains(#"unknown action "bumb" (did you mean "bump"?)"#) == true, "\(issues.value)")
  }
}
