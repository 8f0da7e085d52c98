import LuaBridge
import Testing

/// `call(_:on:with:reading:)` hands the results over where they lie on the stack.
@MainActor
struct ResultsTests {
  let vm: LuaVM
  let function: LuaFunction
  let table: LuaTable

  init() throws {
    vm = try LuaVM()
    function = try vm.load(
      """
      return function(t, how)
        if how == "none" then return end
        if how == "scalars" then return nil, 1, 2.5, true, "count", t.n end
        if how == "table" then return { a = 1 }, "x" end
        if how == "function" then return print end
        if how == "path" then return { "todos", 3, "tags" }, { "a", 1.5 }, { "a", {} } end
      end
      """, chunkName: "results.lua"
    ).call(returning: LuaFunction.self)
    table = try vm.newTable()
    try table.set("n", 7)
  }

  @Test func noResultsReadAsAnEmptyList() throws {
    let count = try vm.call(function, on: table, with: "none") { $0.count }
    #expect(count == 0)
  }

  @Test func scalarsAreReadInPlaceAndTypesAreStrict() throws {
    let read = try vm.call(function, on: table, with: "scalars") { results in
      (
        results.count, results.isNil(1), results.integer(2), results.integer(3), results.boolean(4),
        results.string(5), results.scalar(6), results.scalar(9), results.integer(5)
      )
    }
    #expect(read.0 == 6)
    #expect(read.1)
    #expect(read.2 == 1)
    #expect(read.3 == nil, "a float is not an integer")
    #expect(read.4 == true)
    #expect(read.5 == LuaString("count"))
    #expect(read.6 == .integer(7))
    #expect(read.7 == .nil, "past the end reads as nil")
    #expect(read.8 == nil, "a string is not an integer")
  }

  @Test func aStringWithTheSameBytesReusesTheCandidate() throws {
    let candidate = LuaString("count")
    let reused = try vm.call(function, on: table, with: "scalars") { $0.string(5, reusing: candidate) }
    #expect(reused == candidate)
    let other = try vm.call(function, on: table, with: "scalars") { $0.string(5, reusing: LuaString("other")) }
    #expect(other == LuaString("count"))
  }

  @Test func aPathOfKeysIsReadRawAndOnlyIfEveryKeyIsAStringOrInteger() throws {
    let todos = LuaValue.string("todos")
    let (path, float, nested, reused) = try vm.call(function, on: table, with: "path") { results in
      (results.keys(1), results.keys(2), results.keys(3), results.keys(1, reusing: [todos]))
    }
    #expect(path == ["todos", 3, "tags"])
    #expect(float == nil)
    #expect(nested == nil)
    #expect(reused == ["todos", 3, "tags"])
  }

  @Test func tablesAreNotScalarsButReadAsValues() throws {
    let (scalar, values) = try vm.call(function, on: table, with: "table") { results throws(LuaError) in
      (results.scalar(1), try results.values())
    }
    #expect(scalar == nil)
    #expect(values == [["a": 1], "x"])
  }

  @Test func aResultThatIsNotDataIsAConversionErrorNamingIt() throws {
    #expect {
      try vm.call(function, on: table, with: "function") { results throws(LuaError) in try results.values() }
    } throws: { error in
      (error as? LuaError)?.kind == .conversion && "\(error)".contains("result #1")
    }
  }

  @Test func theResultsArePoppedAfterReading() throws {
    // NB: six results left behind per call would overflow Lua's stack (a million slots) long
    //     before the last call.
    for _ in 0..<200_000 {
      _ = try vm.call(function, on: table, with: "scalars") { $0.count }
    }
    #expect(try vm.call(function, on: table, with: "scalars") { $0.integer(2) } == 1)
  }
}
