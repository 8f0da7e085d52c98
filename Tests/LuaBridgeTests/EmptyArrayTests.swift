import Foundation
import LuaBridge
import Testing

/// A list stays a list when it is emptied: arrays pushed into Lua carry a mark, and a declared
/// example's shape (``LuaArrayShape``) makes an empty table the empty list it stands for.
@Suite struct EmptyArrayTests {
  let vm: LuaVM

  init() throws { vm = try makeVM() }

  @Test func aListPushedWithElementsReadsAsAnEmptyArrayOnceEmptiedInPlace() throws {
    let emptied = try vm.call(
      vm.load("local list = ...; table.remove(list); table.remove(list); return list", chunkName: "lists.lua"),
      LuaValue.array(["a", "b"]))
    #expect(emptied == [.array([])])
    #expect(try LuaJSONEncoder().encodeText(emptied[0]) == "[]")
  }

  @Test func aNestedListOfARecordStaysAnArrayOnceEmptied() throws {
    let value: LuaValue = ["items": [["id": 1, "tags": ["x"]]], "settings": ["theme": "dark"]]
    let result = try vm.call(
      vm.load("local v = ...; v.items[1].tags[1] = nil; v.settings.theme = nil; return v", chunkName: "lists.lua"), value)
    #expect(try LuaJSONEncoder().encodeText(result[0]) == #"{"items":[{"id":1,"tags":[]}],"settings":{}}"#)
  }

  @Test func aFreshEmptyTableStillReadsAsAnEmptyTable() throws {
    let result = try vm.call(vm.load("local list = ...; return {}, list", chunkName: "lists.lua"), LuaValue.array([1]))
    #expect(result == [.table([:]), .array([1])])
  }

  @Test func theShapeOfAnExampleNamesItsListsAndMergesTheElementsOfAList() throws {
    let example: LuaValue = [
      "syncUps": [["id": "a", "meetings": [["id": "m"]]], ["id": "b", "attendees": .array([])]],
      "settings": ["theme": "dark"],
      "tags": .table([:]),
    ]
    #expect(LuaArrayShape(of: example) == .table([
      "syncUps": .array(element: .table(["meetings": .array(element: .table([:])), "attendees": .array(element: nil)])),
      "settings": .table([:]),
    ]))
    #expect(LuaArrayShape(of: ["theme": "dark", "empty": .table([:])]) == nil)
    #expect(LuaArrayShape(of: .array([])) == .array(element: nil))
  }

  @Test func conformingMakesEmptyTablesListsOnlyWhereTheShapeHasLists() throws {
    let shape = try #require(LuaArrayShape(of: ["syncUps": [["meetings": ["m"], "notes": ["k": "v"]]], "map": ["k": 1]]))
    let value: LuaValue = [
      "syncUps": [["meetings": .table([:]), "notes": .table([:])], ["meetings": ["m2"], "notes": .table([:])]],
      "map": .table([:]),
    ]
    let conformed = value.conformingArrays(to: shape)
    #expect(try LuaJSONEncoder().encodeText(conformed)
      == #"{"map":{},"syncUps":[{"meetings":[],"notes":{}},{"meetings":["m2"],"notes":{}}]}"#)
    #expect(LuaValue.table(["x": 1]).conformingArrays(to: .array(element: nil)) == ["x": 1])
  }

  @Test func aPlaceThatIsAListInOneElementAndAMapInAnotherIsLeftAlone() throws {
    let shape = LuaArrayShape(of: [["field": ["a"]], ["field": ["k": 1]], ["other": ["b"]]])
    #expect(shape == .array(element: .table(["other": .array(element: nil)])))
    #expect(LuaArrayShape(of: [["field": ["k": 1]], ["field": ["a"]]]) == .array(element: .table([:])))
    let value: LuaValue = [["field": .table([:]), "other": .table([:])]]
    #expect(value.conformingArrays(to: try #require(shape)) == [["field": .table([:]), "other": .array([])]])
  }

  @Test func anEmptyArrayReadFromJSONIsWrittenBackAsAnEmptyArray() throws {
    let decoded = try LuaJSONDecoder().decode(#"{"laps":[],"meta":{}}"#)
    let pushed = try vm.call(vm.load("local v = ...; return v", chunkName: "lists.lua"), decoded)
    #expect(try LuaJSONEncoder().encodeText(pushed[0]) == #"{"laps":[],"meta":{}}"#)
  }
}
