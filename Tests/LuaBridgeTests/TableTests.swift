import LuaBridge
import Testing

@Suite struct TableTests {
  let vm: LuaVM

  init() throws { vm = try makeVM() }

  @Test func fieldsAreSetAndReadByReference() throws {
    let state = try vm.newTable()
    try state.set("count", 1)
    try state.set("name", "blob")
    #expect(try state.get("count") == 1)
    #expect(try state.get("name", as: String.self) == "blob")
    #expect(try state.value() == ["count": 1, "name": "blob"])
  }

  @Test func luaSeesChangesMadeThroughTheReference() throws {
    let state = try vm.newTable()
    try state.set("count", 41)
    let increment = try vm.load("local t = ... t.count = t.count + 1", chunkName: "inc.lua")
    try vm.call(increment, state)
    #expect(try state.get("count", as: Int.self) == 42)
  }

  @Test func settingNilRemovesAField() throws {
    let state = try vm.reference(["a": 1, "b": 2] as LuaValue).table!
    try state.set("a", LuaValue.nil)
    #expect(try state.value() == ["b": 2])
  }

  @Test func integerKeysAndCount() throws {
    let list = try vm.newTable()
    for i in 1...3 { try list.set(i, "item \(i)") }
    #expect(list.count == 3)
    #expect(try list.get(2) == "item 2")
  }

  @Test func nestedTablesCanBeHeldByReference() throws {
    let root = try vm.reference(["child": ["x": 1]] as LuaValue).table!
    let child = try root.get("child", as: LuaTable.self)
    try child.set("x", 2)
    #expect(try root.value() == ["child": ["x": 2]])
  }

  @Test func nilKeyIsAnError() throws {
    let t = try vm.newTable()
    let error = try #require(throws: LuaError.self) { try t.set(LuaValue.nil, 1) }
    #expect(error.message == "table index is nil")
  }

  @Test func wrongTypeReadIsAConversionError() throws {
    let t = try vm.reference(["n": "x"] as LuaValue).table!
    let error = try #require(throws: LuaError.self) { try t.get("n", as: Int.self) }
    #expect(error.kind == .conversion)
  }

  @Test func referencesFromAnotherVMAreRefused() throws {
    let other = try makeVM()
    let foreign = try other.newTable()
    let local = try vm.newTable()
    let error = try #require(throws: LuaError.self) { try local.set("x", foreign) }
    #expect(error.kind == .conversion)
    #expect(error.conversion?.problem == .foreignReference)
  }

  @Test func globalsOfTheVMAreReachable() throws {
    try vm.globals().set("answer", 42)
    #expect(try vm.call(vm.load("return answer", chunkName: "g.lua")) == [42])
  }
}
