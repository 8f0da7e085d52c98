import ComposableTesting
import CustomDump
import LuaFeatures
import Testing

/// A Lua feature's state and actions in a Swift `TestStore`'s failures read as Lua tables, in the
/// notation `lunar run` and `lunar test` use, with a diff a line per changed entry.
@MainActor
struct LuaStateDumpTests {
  static let source = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Notes",
      initial = { notes = {}, count = 0 },
      reduce = function(state, action)
        if action.type == "add" then
          state.notes[#state.notes + 1] = action.title
          state.count = #state.notes
        end
      end,
    }
    """

  func failures(_ body: (TestStore<LuaState, LuaValue>) async -> Void) async throws -> [String] {
    let feature = try LuaFeatureHost().load(source: Self.source, chunkName: "notes.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    let messages = LockIsolated<[String]>([])
    await withKnownIssue {
      await body(store)
    } matching: { issue in
      messages.withValue { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    return messages.value
  }

  @Test func aStateAndAnActionDumpAsLuaTables() {
    #expect(String(customDumping: LuaState(["count": 1, "notes": ["milk"]])) == #"{ count = 1, notes = { "milk" } }"#)
    #expect(String(customDumping: ["type": "add", "title": "milk"] as LuaValue) == #"{ type = "add", title = "milk" }"#)
  }

  @Test func aWrongExpectationShowsTheLuaDiff() async throws {
    let messages = try await failures { store in
      await store.send(["type": "add", "title": "milk"]) {
        $0.count = 1
        $0.notes = ["eggs"]
      }
    }
    #expect(messages == [
      """
      A state change does not match expectation: …

          \u{2007} {
          \u{2007}   count = 1,
          \u{2007}   notes = {
          −     "eggs",
          +     "milk",
          \u{2007}   },
          \u{2007} }

      (Expected: −, Actual: +)
      """
    ])
  }

  @Test func anUnassertedChangeShowsTheLuaDiffFromAnEmptyTable() async throws {
    let messages = try await failures { store in
      await store.send(["type": "add", "title": "milk"])
    }
    #expect(messages == [
      """
      State was not expected to change, but a change occurred: …

          \u{2007} {
          −   count = 0,
          +   count = 1,
          \u{2007}   notes = {
          +     "milk",
          \u{2007}   },
          \u{2007} }

      (Expected: −, Actual: +)
      """
    ])
  }

  struct Parent: Equatable {
    var editor: LuaState
    var saved: Bool
  }

  @Test func insideASwiftStateTheLuaTableShowsWholeOnEachSide() {
    let before = Parent(editor: LuaState(["text": "eggs"]), saved: true)
    let after = Parent(editor: LuaState(["text": "milk"]), saved: true)
    #expect(diff(before, after) == """
        LuaStateDumpTests.Parent(
      -   editor: { text = "eggs" },
      +   editor: { text = "milk" },
          saved: true
        )
      """)
  }
}
