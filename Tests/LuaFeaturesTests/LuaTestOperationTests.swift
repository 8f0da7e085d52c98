import LuaBridge
import Testing

@testable import LuaFeatures

/// How the runner decodes the store operations `lunar.test` yields: once, by name, refusing an
/// unknown operation or a store argument that is not a store's id.
struct LuaTestOperationTests {
  func misuse(_ name: String, _ arguments: [LuaValue]) -> String? {
    do {
      _ = try LuaTestOperation(name: name, arguments: arguments)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func anUnknownOperationIsRefusedByName() {
    #expect(misuse("rewind", [.integer(1), "t.lua:3"]) == "unknown test store operation 'rewind'")
  }

  @Test func anOperationOnSomethingOtherThanAStoreIsRefused() {
    #expect(misuse("finish", ["not a store", "t.lua:3"]) == "not a test store of this test")
  }

  @Test func aReceiveOfAPredicateWithoutAFunctionIsRefused() {
    #expect(misuse("receive", [.integer(1), "predicate", "no handle", .nil, "t.lua:3"]) == "bad predicate")
  }

  @Test func aSendCarriesItsStoreActionAndExpectation() throws {
    let operation = try LuaTestOperation(name: "send", arguments: [.integer(2), ["type": "increment"], .integer(7), "t.lua:3"])
    guard case let .send(store, action, expect) = operation else {
      Issue.record("decoded as \(operation)")
      return
    }
    #expect(store == 2)
    #expect(action == ["type": "increment"])
    #expect(expect == .integer(7))
  }

  @Test func aStoreTakesItsOptionsWithDefaults() throws {
    let operation = try LuaTestOperation(name: "store", arguments: [.integer(1), .nil, .integer(2), .nil, .nil, .nil, "t.lua:3"])
    guard case let .store(_, _, initialBuilder, _, exhaustive, realClients, timeout) = operation else {
      Issue.record("decoded as \(operation)")
      return
    }
    #expect(initialBuilder == nil)
    #expect(exhaustive)
    #expect(realClients.isEmpty)
    #expect(timeout == nil)
  }

  @Test func aStoreWhoseInitialIsAFunctionCarriesItsHandle() throws {
    let operation = try LuaTestOperation(
      name: "store", arguments: [.integer(1), .nil, .integer(2), true, .nil, .nil, .integer(9), "t.lua:3"])
    guard case let .store(_, initial, initialBuilder, _, _, _, _) = operation else {
      Issue.record("decoded as \(operation)")
      return
    }
    #expect(initial == .nil)
    #expect(initialBuilder == 9)
  }
}
