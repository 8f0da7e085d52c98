import LuaBridge
import LuaFeatures
import LunarHostSupport
import Testing

/// Values, actions and changes as the terminal writes them (Lua, within limits), actions by path,
/// and what Tab completes.
@Suite struct ValueTextTests {
  let breeds: LuaValue = ["type": "breedsLoaded", "breeds": [["name": "hound", "subBreeds": ["afghan", "basset"]]]]

  @Test func anActionIsWrittenAsItIsTyped() {
    #expect(ValueText.full.action(["type": "increment"]) == "increment")
    #expect(ValueText.full.action(["type": "add", "title": "milk", "count": 2]) == #"add count=2 title="milk""#)
    #expect(ValueText.full.action(["type": "add", "odd key": 1]) == #"{ type = "add", ["odd key"] = 1 }"#)
    #expect(ValueText.full.action(["title": "no type"]) == #"{ title = "no type" }"#)
  }

  @Test func aChildsActionIsWrittenAsAPath() {
    let dogs: LuaValue = ["type": "dogs", "action": ["type": "breedTapped", "breed": "hound"]]
    let row: LuaValue = ["type": "todos", "id": 1, "action": ["type": "toggle"]]
    let deep: LuaValue = ["type": "path", "id": 2, "action": ["type": "detail", "action": ["type": "closeTapped"]]]
    #expect(ValueText.full.action(dogs) == #"dogs.breedTapped breed="hound""#)
    #expect(ValueText.full.action(row) == "todos[1].toggle")
    #expect(ValueText.full.action(deep) == "path[2].detail.closeTapped")
    #expect(ValueText.full.action(["type": "todos", "id": "a", "action": ["type": "toggle"]]) == #"todos["a"].toggle"#)
  }

  @Test func depthAndLengthLimitsCutWithAnEllipsis() {
    #expect(ValueText(depth: 1, length: nil).value(breeds) == #"{ type = "breedsLoaded", breeds = {…} }"#)
    #expect(ValueText(depth: 2, length: nil).action(breeds) == "breedsLoaded breeds={ {…} }")
    #expect(ValueText(depth: nil, length: 20).value(breeds) == #"{ type = "breedsLoa…"#)
    #expect(ValueText(depth: 1, length: nil).value(["empty": [:], "list": []]) == "{ empty = {}, list = {} }")
  }

  @Test func aChangeIsWrittenAsAnAssignment() {
    #expect(ValueText.full.change(LuaStateChange(path: ["count"], value: 3)) == "count = 3")
    #expect(ValueText.full.change(LuaStateChange(path: ["laps", 3], value: 0.5)) == "laps[3] = 0.5")
    #expect(ValueText.full.change(LuaStateChange(path: ["todos", 2, "title"], value: "milk")) == #"todos[2].title = "milk""#)
    #expect(ValueText.full.change(LuaStateChange(path: ["detail"], value: .nil)) == "detail = nil")
  }

  @Test func aPathWrapsTheChildsActionAsTheCompositionRoutesIt() throws {
    #expect(try ActionPath("todos[1].toggle").wrapping(["type": "toggle"]) == ["type": "todos", "id": 1, "action": ["type": "toggle"]])
    #expect(try ActionPath("dogs.breedTapped").wrapping(["type": "breedTapped", "breed": "hound"])
      == ["type": "dogs", "action": ["type": "breedTapped", "breed": "hound"]])
    #expect(try ActionPath(#"rows["b"].tick"#).wrapping(["type": "tick"]) == ["type": "rows", "id": "b", "action": ["type": "tick"]])
    #expect(throws: ActionParseError.self) { try ActionPath("todos[1.toggle") }
    #expect(throws: ActionParseError.self) { try ActionPath("todos.") }
    #expect(throws: ActionParseError.self) { try ActionPath("todos[1]toggle") }
  }

  let completion = ActionCompletion(
    paths: [("add", ["count", "title"]), ("addRow", []), ("todos[].toggle", []), ("todos[].edit", ["title"]), ("dogs.onAppear", [])],
    commands: ["state", "quit", "reset"])

  @Test func tabCompletesActionsPathsFieldsAndCommands() {
    #expect(completion.completion(of: "ad").insert == "d")
    #expect(completion.completion(of: "add").list == ["add", "addRow"])
    #expect(completion.completion(of: "addR").insert == "ow ")
    #expect(completion.completion(of: "to").insert == "dos[")
    #expect(completion.completion(of: "todos[12].t").insert == "oggle ")
    #expect(completion.completion(of: "todos[12].").list == ["todos[12].edit", "todos[12].toggle"])
    #expect(completion.completion(of: "dogs.").insert == "onAppear ")
    #expect(completion.completion(of: "add ti").insert == "tle=")
    #expect(completion.completion(of: "add title=milk ").list == [])
    #expect(completion.completion(of: "add title=milk ").insert == "count=")
    #expect(completion.completion(of: "todos[3].edit ").insert == "title=")
    #expect(completion.completion(of: ":re").insert == "set ")
    #expect(completion.completion(of: "zz").insert == "")
  }
}
