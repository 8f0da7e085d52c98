import Foundation
import Testing

/// `lunar run` with piped input: one action per line in, one JSON event per line out.
@Suite struct RunScriptedTests {
  @Test func pipedActionsPrintExactJSONEventsAndTheOfflineFact() async throws {
    let output = try await Lunar.run(["run", "examples/counter", "--time-limit", "60"], input: "increment\nincrement\nfactTapped\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.lines == [
      #"{"event":"ready","feature":"Counter","state":{"count":0,"loading":false,"timerRunning":false}}"#,
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","patch":[{"op":"set","path":["count"],"value":1}]}"#,
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","patch":[{"op":"set","path":["count"],"value":2}]}"#,
      #"{"action":{"type":"factTapped"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","patch":[{"op":"set","path":["loading"],"value":true}]}"#,
      #"{"action":"factTapped","event":"effect","running":1,"status":"started"}"#,
      #"{"action":{"fact":"2 is the only even prime number.","type":"factLoaded"},"event":"action","source":"effect"}"#,
      #"{"changed":true,"event":"state","patch":[{"op":"set","path":["loading"],"value":false},{"op":"set","path":["fact"],"value":"2 is the only even prime number."}]}"#,
      #"{"action":"factTapped","event":"effect","running":0,"status":"finished"}"#,
    ])
    #expect(output.stderr.isEmpty, "\(output)")
  }

  @Test func fullStateAndViewPutTheWholeStateAndTheViewInEachEvent() async throws {
    let output = try await Lunar.run(
      ["run", "examples/counter", "--full-state", "--view", "--time-limit", "60"], input: "increment\nincrement\nfactTapped\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.lines == [
      #"{"event":"ready","feature":"Counter","state":{"count":0,"loading":false,"timerRunning":false},"view":"  [ - ]  0  [ + ]\n  timer: off"}"#,
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","state":{"count":1,"loading":false,"timerRunning":false},"view":"  [ - ]  1  [ + ]\n  timer: off"}"#,
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","state":{"count":2,"loading":false,"timerRunning":false},"view":"  [ - ]  2  [ + ]\n  timer: off"}"#,
      #"{"action":{"type":"factTapped"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","state":{"count":2,"loading":true,"timerRunning":false},"view":"  [ - ]  2  [ + ]\n  loading a fact…\n  timer: off"}"#,
      #"{"action":"factTapped","event":"effect","running":1,"status":"started"}"#,
      #"{"action":{"fact":"2 is the only even prime number.","type":"factLoaded"},"event":"action","source":"effect"}"#,
      #"{"changed":true,"event":"state","state":{"count":2,"fact":"2 is the only even prime number.","loading":false,"timerRunning":false},"view":"  [ - ]  2  [ + ]\n  2 is the only even prime number.\n  timer: off"}"#,
      #"{"action":"factTapped","event":"effect","running":0,"status":"finished"}"#,
    ])
    #expect(output.stderr.isEmpty, "\(output)")
  }

  @Test func theOfflineFactIsTheCountersRecordingOfNumbersapi() async throws {
    let fixtures = Lunar.packageRoot.appendingPathComponent("examples/counter/fixtures/http")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: fixtures.path).first { $0.hasPrefix("GET-numbersapi.com-3-") })
    let recording = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(name)))
    let fact = ((recording as? [String: Any])?["response"] as? [String: Any])?["body"] as? String
    let output = try await Lunar.run(["run", "examples/counter"], input: "increment\nincrement\nincrement\nfactTapped\n")

    #expect(output.status == 0, "\(output)")
    let loaded = output.events.named("action").first { $0.actionType == "factLoaded" }
    #expect((loaded?["action"] as? [String: Any])?["fact"] as? String == fact)
    #expect(fact == "3 is the number of spatial dimensions we perceive.")
  }

  @Test func offlineANumberWithoutARecordingShowsWhyAsItsFact() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: "decrement\nfactTapped\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("error").isEmpty, "\(output)")
    let fact = try #require(output.events.named("state").last?.state?["fact"] as? String, "\(output)")
    #expect(fact.hasPrefix("No fact today: fact_client.lua:10: deps.http.get failed: no recorded response for GET http://numbersapi.com/-1 (looked for "), "\(fact)")
    #expect(fact.hasSuffix("/examples/counter/fixtures/http/GET-numbersapi.com-1-3e5f36d8.json; record it with --deps record)"), "\(fact)")
  }

  @Test func depsListsTheFeaturesLuaClientsAmongTheHostsDependencies() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: ":deps\n")

    #expect(output.status == 0, "\(output)")
    let lines = (output.events.named("note").first?.string("message") ?? "").split(separator: "\n").map(String.init)
    #expect(lines.contains("deps.factClient.fetch  (a client written in Lua)"), "\(output)")
    #expect(lines.contains("deps.http.get  (async: only inside fx.run)"), "\(output)")
    #expect(lines == lines.sorted(), "\(lines)")
  }

  @Test func blankLinesAndCommentLinesAreSkipped() async throws {
    let output = try await Lunar.run(["run", "examples/counter"], input: "\n   \n-- a comment\nincrement\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.events.map { $0.name ?? "?" } == ["ready", "action", "state"])
  }

  @Test func aMissingFeatureIsAUsageErrorNamingThePath() async throws {
    let output = try await Lunar.run(["run", "examples/nowhere"], input: "")

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("no such file or folder: examples/nowhere"), "\(output)")
  }

  @Test func aTimerStillRunningAtTheEndOfInputStopsAfterTheTimeout() async throws {
    let output = try await Lunar.run(["run", "examples/counter", "--timeout", "0.2"], input: "toggleTimer\n")

    #expect(output.status == 0, "\(output)")
    let note = output.events.named("note").last
    #expect(note?.string("message") == "1 effect(s) still running after 0.2s; stopping", "\(output)")
  }
}

extension RunScriptedTests {
  @Test func eachEventArrivesBeforeTheNextLineIsSent() async throws {
    let conversation = try await Conversation(["run", "examples/counter", "--json"])

    #expect(await conversation.next("ready") != nil)
    for expected in 1...3 {
      try conversation.send("increment")
      let state = await conversation.next("state", timeout: 10)
      #expect(state?.state?["count"] as? Int == expected, "no state event for increment \(expected) while input stays open")
    }
    try conversation.send("factTapped")
    let effect = await conversation.next("effect")
    #expect(effect?.string("status") == "started")
    #expect(await conversation.next("effect")?.string("status") == "finished")
    #expect(conversation.finish() == 0)
  }
}
