import Foundation
import Testing

/// `lunar host examples`: the five examples as plugins, in one process.
struct HostExamplesTests {
  /// Runs `lunar host examples` with `lines` of JSON input, in a data folder of its own.
  func hostExamples(_ arguments: [String] = [], lines: [String]) async throws -> Lunar.Output {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    return try await Lunar.run(
      ["host", "examples"] + arguments, input: lines.joined(separator: "\n") + "\n",
      environment: ["XDG_DATA_HOME": data.path])
  }

  @Test func theExamplesRunAsPluginsWithTheirGrantsAndCost() async throws {
    let output = try await hostExamples(lines: [
      #"{"plugin": "counter", "action": "factTapped"}"#,
      #"{"plugin": "search", "action": "queryChanged query=apr"}"#,
      #"{"plugin": "dogs", "action": {"type": "dogs", "action": {"type": "onAppear"}}}"#,
      #"{"plugin": "todos", "action": "add title=milk"}"#,
      #"{"plugin": "syncups", "action": {"type": "syncUpsList", "action": {"type": "addSyncUpButtonTapped"}}}"#,
      #"{"plugin": "syncups", "action": {"type": "syncUpsList", "action": {"type": "confirmAddSyncUpButtonTapped"}}}"#,
      #"{"command": "wait"}"#,
      #"{"command": "list"}"#,
    ])

    #expect(output.status == 0, "\(output)")
    let loaded = Dictionary(uniqueKeysWithValues: output.events.named("loaded").compactMap { event in
      event.string("plugin").map { ($0, event) }
    })
    #expect(loaded.keys.sorted() == ["counter", "dogs", "search", "syncups", "todos"])
    #expect((loaded["dogs"]?["granted"] as? [String: Any])?["http"] as? [String: [String]] == ["hosts": ["dog.ceo"]])
    #expect((loaded["search"]?["granted"] as? [String: Any])?["files"] as? Bool == true)
    func last(_ plugin: String) -> [String: Any]? {
      output.events.named("state").last { $0.string("plugin") == plugin }?.state
    }
    #expect((last("counter")?["fact"] as? String)?.isEmpty == false, "\(output)")
    #expect(last("search")?["results"] as? [String] == ["apricot", "april", "apron"], "\(output)")
    #expect(((last("dogs")?["dogs"] as? [String: Any])?["breeds"] as? [Any])?.isEmpty == false, "\(output)")
    #expect((last("todos")?["todos"] as? [Any])?.count == 1, "\(output)")
    #expect(((last("syncups")?["syncUpsList"] as? [String: Any])?["syncUps"] as? [Any])?.count == 1, "\(output)")
    let list = try #require(output.events.named("plugins").last?["plugins"] as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == ["counter", "dogs", "search", "syncups", "todos"])
    #expect(list.allSatisfy { ($0["actions"] as? Int ?? 0) >= 2 && $0["timePerAction"] != nil }, "\(list)")
  }

  @Test func withHTTPDeniedTheCounterSaysWhyItHasNoFact() async throws {
    let output = try await hostExamples(["--deny", "http"], lines: [
      #"{"plugin": "counter", "action": "factTapped"}"#, #"{"command": "wait"}"#,
    ])
    let counter = output.events.named("state").last { $0.string("plugin") == "counter" }
    let fact = try #require(counter?.state?["fact"] as? String, "\(output)")
    #expect(fact.contains(
      "plugin counter was not granted http: lunar host was started with --deny http; start it without to grant it"), "\(fact)")
  }
}
