import LuaBridgeBench
import Testing

/// The benchmarks' yardsticks run the reducer they claim to measure.
struct BaselineTests {
  @Test func theJournalFloorRunsTheReducerThroughItsProxyOnEveryCall() throws {
    let floor = try JournalFloorBaseline(source: BenchScripts.counterReducer, items: 10)
    _ = floor.measure(iterations: 5, repetitions: 2)
    #expect(floor.count == 10)
  }

  @Test func theJournalFloorRejectsAReducerThatDoesNotLoad() {
    #expect(throws: (any Error).self) {
      try JournalFloorBaseline(source: "return function(", items: 10)
    }
  }
}
