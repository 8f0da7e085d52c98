import LuaBridge
import LunarHostSupport
import Testing

/// How a replay hands recorded results to the calls it makes.
struct ReplayQueueTests {
  @Test func aCallTakesTheResultRecordedWithItsArgumentsWhicheverCallsFirst() throws {
    // Recorded in call order: a timer's sleep(0.2), then a loop's sleep(0.09); the replay calls the
    // loop's first.
    let queue = ReplayQueue(
      ["clock.sleep": [.value("timer"), .value("loop")]],
      arguments: ["clock.sleep": [[.number(0.2)], [.number(0.09)]]])
    #expect(try queue.next("clock.sleep", arguments: [.number(0.09)]) == "loop")
    #expect(try queue.next("clock.sleep", arguments: [.number(0.2)]) == "timer")
  }

  @Test func aCallWhoseArgumentsWereNeverRecordedTakesTheFirstResultOfItsName() throws {
    let queue = ReplayQueue(
      ["http.get": [.value("first"), .value("second")]],
      arguments: ["http.get": [[.text("a")], [.text("b")]]])
    #expect(try queue.next("http.get", arguments: [.text("c")]) == "first")
    #expect(try queue.next("http.get", arguments: [.text("b")]) == "second")
  }

  @Test func aRecordingWithoutArgumentsIsReplayedInCallOrder() throws {
    let queue = ReplayQueue(["uuid": [.value("1"), .value("2")]])
    #expect(try queue.next("uuid", arguments: []) == "1")
    #expect(try queue.next("uuid", arguments: []) == "2")
  }
}
