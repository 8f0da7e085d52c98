import LuaBridge
import Testing

struct Todo: Codable, Equatable {
  var id: Int
  var title: String
  var done: Bool
  var tags: [String] = []
  var note: String?
  var score: Double = 0.5
}

struct Board: Codable, Equatable {
  var name: String
  var todos: [Todo]
  var owners: [String: Int]
}

enum Filter: String, Codable { case all, active }

/// A type whose encode(to:) returns to a container it already left, which the streaming
/// encoder cannot follow; it must fall back to the tree encoder with the same result.
struct OutOfOrder: Codable, Equatable {
  var a: Int
  var b: Int
  enum Keys: String, CodingKey { case first, second, a, b }
  init(a: Int, b: Int) { self.a = a; self.b = b }
  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    a = try c.nestedContainer(keyedBy: Keys.self, forKey: .first).decode(Int.self, forKey: .a)
    b = try c.nestedContainer(keyedBy: Keys.self, forKey: .second).decode(Int.self, forKey: .b)
  }
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    var first = c.nestedContainer(keyedBy: Keys.self, forKey: .first)
    var second = c.nestedContainer(keyedBy: Keys.self, forKey: .second)
    try second.encode(b, forKey: .b)
    try first.encode(a, forKey: .a)
  }
}

class Base: Codable { var id = 1 }
final class Derived: Base, @unchecked Sendable {
  var label = "derived"
  enum Keys: CodingKey { case label }
  override init() { super.init() }
  required init(from decoder: any Decoder) throws {
    label = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .label)
    try super.init(from: decoder.container(keyedBy: Keys.self).superDecoder())
  }
  override func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(label, forKey: .label)
    try super.encode(to: c.superEncoder())
  }
}

@Suite struct CodableTests {
  let vm: LuaVM
  let board = Board(
    name: "Home",
    todos: [Todo(id: 1, title: "Milk", done: false, tags: ["shop"]), Todo(id: 2, title: "Tax", done: true, note: "April")],
    owners: ["ana": 1])

  init() throws { vm = try makeVM() }

  @Test func encoderMapsStructsToTables() throws {
    let value = try LuaEncoder().encode(Todo(id: 1, title: "Milk", done: false))
    #expect(value == ["id": 1, "title": "Milk", "done": false, "tags": .array([]), "score": 0.5])
  }

  @Test func decoderReadsWhatTheEncoderWrote() throws {
    let value = try LuaEncoder().encode(board)
    #expect(try LuaDecoder().decode(Board.self, from: value) == board)
  }

  @Test func pushingStreamsTheSameTablesAsTheTreeEncoder() throws {
    let streamed = try vm.reference(LuaEncoded(board)).value()
    #expect(streamed == (try LuaEncoder().encode(board)).normalized)
  }

  @Test func codableValuesRoundTripThroughLua() throws {
    let identity = try vm.load("return function(v) return v end", chunkName: "id.lua").call(returning: LuaFunction.self)
    let back = try identity.call(LuaEncoded(board), returning: LuaRef.self).decode(Board.self)
    #expect(back == board)
  }

  @Test func luaScriptsCanEditDecodedState() throws {
    let toggle = try vm.load("return function(b) b.todos[1].done = true; b.todos[1].note = 'done' end", chunkName: "t.lua")
      .call(returning: LuaFunction.self)
    let state = try vm.reference(LuaEncoded(board))
    try toggle.call(state)
    let after = try state.decode(Board.self)
    #expect(after.todos[0].done && after.todos[0].note == "done")
  }

  @Test func outOfOrderEncodingFallsBackToTheTree() throws {
    let value = OutOfOrder(a: 1, b: 2)
    let streamed = try vm.reference(LuaEncoded(value)).value()
    #expect(streamed == ["first": ["a": 1], "second": ["b": 2]])
    #expect(try LuaDecoder().decode(OutOfOrder.self, from: streamed) == value)
  }

  @Test func superEncoderFallsBackToTheTree() throws {
    let streamed = try vm.reference(LuaEncoded(Derived())).value()
    #expect(streamed == ["label": "derived", "super": ["id": 1]])
    #expect(try LuaDecoder().decode(Derived.self, from: streamed).label == "derived")
  }

  @Test func enumsAndOptionalsEncodeNaturally() throws {
    #expect(try LuaEncoder().encode(Filter.active) == "active")
    #expect(try LuaEncoder().encode([1, nil, 3] as [Int?]) == [1, nil, 3])
  }

  @Test func decodingErrorNamesTheLuaPath() throws {
    let value: LuaValue = [
      "name": "x", "owners": .table([:]),
      "todos": [
        ["id": 1, "title": "a", "done": false, "tags": .array([]), "score": 1.0],
        ["id": 2, "title": 7, "done": true, "tags": .array([]), "score": 1.0],
      ],
    ]
    let error = try #require(throws: LuaConversionError.self) { try LuaDecoder().decode(Board.self, from: value) }
    #expect(error.description == "todos[2].title: expected a string, found an integer (7)")
  }

  @Test func missingKeyIsNamed() throws {
    let error = try #require(throws: LuaConversionError.self) { try LuaDecoder().decode(Todo.self, from: ["id": 1, "done": true]) }
    #expect(error.description == "title: missing (expected a string)")
  }

  @Test func integralFloatsDecodeAsIntegersButFractionsDoNot() throws {
    #expect(try LuaDecoder().decode(Int.self, from: 3.0) == 3)
    let error = try #require(throws: LuaConversionError.self) { try LuaDecoder().decode(Int.self, from: 3.5) }
    #expect(error.problem == .typeMismatch(expected: "an integer", found: "a float (3.5)"))
  }

  @Test func outOfRangeIntegersAreErrors() throws {
    #expect(throws: LuaConversionError.self) { try LuaDecoder().decode(UInt8.self, from: 300) }
    #expect(throws: LuaConversionError.self) { try LuaEncoder().encode(UInt64.max) }
  }

  @Test func emptyTablesDecodeAsEmptyArraysAndEmptyObjects() throws {
    #expect(try LuaDecoder().decode([Int].self, from: .table([:])) == [])
    #expect(try LuaDecoder().decode([String: Int].self, from: .array([])) == [:])
  }

  @Test func encodingTooDeepIsNamed() throws {
    indirect enum Nest: Codable { case leaf, node([Nest]) }
    var value = Nest.leaf
    for _ in 0..<200 { value = .node([value]) }
    #expect(throws: LuaConversionError.self) { try LuaEncoder().encode(value) }
    #expect(throws: LuaError.self) { try vm.reference(LuaEncoded(value)) }
  }

  @Test func stringsWithInvalidUTF8DoNotDecodeAsString() throws {
    let error = try #require(throws: LuaConversionError.self) {
      try LuaDecoder().decode(String.self, from: .string(LuaString(bytes: [0xFF])))
    }
    #expect(error.problem == .invalidUTF8)
  }
}
