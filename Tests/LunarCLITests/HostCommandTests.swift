import Foundation
import Testing

/// `lunar host`: every plugin of a folder in one process, as JSON lines.
struct HostCommandTests {
  static let plugins = Lunar.testsFolder.appendingPathComponent("Fixtures/plugins")

  /// Runs `lunar host` over `folder` with `lines` of JSON input, in a data folder of its own.
  func host(in folder: URL = plugins, _ arguments: [String] = [], lines: [String]) async throws -> Lunar.Output {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    return try await Lunar.run(
      ["host", folder.path] + arguments, input: lines.joined(separator: "\n") + "\n",
      environment: ["XDG_DATA_HOME": data.path])
  }

  @Test func everyPluginLoadsAndEveryEventNamesItsPlugin() async throws {
    let output = try await host(lines: [
      #"{"plugin": "counter", "action": {"type": "increment"}}"#,
      #"{"plugin": "greeter", "action": "greet name=Ada"}"#,
      #"{"plugin": "counter", "action": "increment"}"#,
    ])
    #expect(output.status == 0, "\(output)")
    let loaded = output.events.named("loaded")
    #expect(loaded.map { $0.string("plugin") } == ["counter", "greeter"])
    let greeter = try #require(loaded.last)
    #expect(greeter.string("version") == "1.2.0")
    #expect((greeter["requested"] as? [String: Any])?["storage"] as? Bool == true)
    #expect((greeter["granted"] as? [String: Any])?["storage"] as? Bool == true)
    #expect(output.events.allSatisfy { $0.string("plugin") != nil }, "\(output)")
    let states = output.events.named("state")
    #expect(states.map { $0.string("plugin") } == ["counter", "greeter", "counter"])
    #expect(states.last?.state?["count"] as? Int == 2)
    #expect(states[1].state?["greeting"] as? String == "Hello, Ada!")
  }

  @Test func anActionAPluginDoesNotDeclareIsAnInputError() async throws {
    let output = try await host(in: Lunar.packageRoot.appendingPathComponent("examples"), lines: [
      #"{"plugin": "counter", "action": "incremnt"}"#, #"{"plugin": "counter", "action": {"type": "increment", "by": 2}}"#,
    ])
    let messages = output.events.named("error").compactMap { $0.string("message") }
    #expect(messages == [
      #"unknown action "incremnt" (did you mean "increment"?); Counter declares decrement, factFailed, factLoaded, factTapped, increment, tick, toggleTimer"#,
      #"action "increment" has no field "by"; it has no fields"#,
    ], "\(output)")
    #expect(output.events.named("state").isEmpty, "\(output)")
  }

  @Test func aDeniedCapabilityIsRefusedNamingThePluginAndTheOption() async throws {
    let output = try await host(["--deny", "greeter:storage"], lines: [
      #"{"plugin": "greeter", "action": "save"}"#, #"{"command": "wait"}"#,
    ])
    let loaded = try #require(output.events.named("loaded").last)
    #expect((loaded["granted"] as? [String: Any])?["storage"] == nil)
    let failure = try #require(output.events.named("state").last?.state?["failure"] as? String, "\(output)")
    #expect(failure.hasSuffix(
      "deps.storage.set failed: plugin greeter was not granted storage: lunar host was started with --deny greeter:storage; start it without to grant it"),
      "\(failure)")
  }

  @Test func aPluginsStorageIsItsOwn() async throws {
    let data = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: data) }
    let output = try await Lunar.run(
      ["host", Self.plugins.path], input: #"{"plugin": "greeter", "action": "greet name=Ada"}"# + "\n"
        + #"{"plugin": "greeter", "action": "save"}"# + "\n",
      environment: ["XDG_DATA_HOME": data.path, "LUNAR_STORAGE": data.appendingPathComponent("shared.json").path])

    #expect(output.status == 0, "\(output)")
    #expect(output.events.named("state").last?.state?["saved"] as? Bool == true, "\(output)")
    // NB: the folder is named for the plugin and tied to its folder's path (16 hex digits).
    let plugins = data.appendingPathComponent("lunar/plugins")
    let folders = try FileManager.default.contentsOfDirectory(atPath: plugins.path)
    #expect(folders.count == 1 && folders[0].wholeMatch(of: /greeter-[0-9a-f]{16}/) != nil, "\(folders)")
    let file = plugins.appendingPathComponent(folders[0]).appendingPathComponent("storage.json")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains("Hello, Ada!"), "\(text)")
    #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("shared.json").path))
  }

  @Test func aNegativeDataLimitIsRefused() async throws {
    let output = try await host(["--data-limit=-1"], lines: [])
    #expect(output.status != 0)
    #expect(output.stderr.contains("--data-limit must be from 0 to 1073741824 megabytes, got -1"), "\(output)")
  }

  @Test func aPluginThatFailsToLoadIsReportedAndTheOthersServe() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixtures = Lunar.testsFolder.appendingPathComponent("Fixtures")
    try FileManager.default.copyItem(at: Self.plugins.appendingPathComponent("counter"), to: folder.appendingPathComponent("counter"))
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent("future_plugin"), to: folder.appendingPathComponent("future"))

    let output = try await host(in: folder, lines: [#"{"plugin": "counter", "action": "increment"}"#])

    #expect(output.status == 1, "\(output)")
    let failed = try #require(output.events.named("failed").first)
    #expect(failed.string("plugin") == "future")
    #expect(failed.string("kind") == "api")
    #expect(failed.string("file") == "plugin.lua")
    #expect(failed.int("line") == 6)
    #expect(failed.string("message")?.hasPrefix("api = 2 is a version of the Lua API this host does not offer (it offers api = 1)") == true)
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1)
  }

  @Test func aPluginsWarningIsItsOwnEventInOrder() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let forgetful = folder.appendingPathComponent("forgetful")
    try FileManager.default.createDirectory(at: forgetful, withIntermediateDirectories: true)
    try #"local lunar = require "lunar"\#nreturn lunar.plugin { name = "forgetful", version = "1.0.0", api = 1, feature = "feature" }\#n"#
      .write(to: forgetful.appendingPathComponent("plugin.lua"), atomically: true, encoding: .utf8)
    try """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Forgetful",
        initial = { n = 0 },
        reduce = function(state, action)
          lunar.fx.run(function() end)
          state.n = state.n + 1
        end,
      }
      """.write(to: forgetful.appendingPathComponent("feature.lua"), atomically: true, encoding: .utf8)

    let output = try await host(in: folder, lines: [#"{"plugin": "forgetful", "action": "go"}"#])

    #expect(output.status == 0, "\(output)")
    #expect(output.events.map { $0.string("event") ?? "?" } == ["loaded", "action", "warning", "state"], "\(output)")
    let warning = try #require(output.events.named("warning").first)
    #expect(warning.string("plugin") == "forgetful")
    #expect(warning.string("message") == """
      feature.lua:6: an effect (fx.run) was built but not returned, so it never runs: `return` it from the reducer, \
      or combine several with fx.merge(…)
      """)
  }

  @Test func aPluginThatLoopsLeavesTheOthersServing() async throws {
    let folder = try makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: Self.plugins.appendingPathComponent("counter"), to: folder.appendingPathComponent("counter"))
    let looper = folder.appendingPathComponent("looper")
    try FileManager.default.createDirectory(at: looper, withIntermediateDirectories: true)
    try """
      local lunar = require "lunar"
      return lunar.feature {
        name = "Looper", initial = { spins = 0 },
        reduce = function(state, action)
          state.spins = state.spins + 1
          while action.type == "spin" do end
        end,
      }
      """.write(to: looper.appendingPathComponent("feature.lua"), atomically: true, encoding: .utf8)

    // NB: an instruction budget, and time enough: on a busy machine a short time limit also
    //     stopped the counter's own load.
    let output = try await host(in: folder, ["--instruction-limit", "5000000", "--time-limit", "60"], lines: [
      #"{"plugin": "counter", "action": "increment"}"#,
      #"{"plugin": "looper", "action": "spin"}"#,
      #"{"plugin": "counter", "action": "increment"}"#,
      #"{"plugin": "looper", "action": "rest"}"#,
    ])

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("plugin") == "looper")
    #expect(error.string("message")?.contains("instruction limit exceeded (5000000 instructions per call)") == true, "\(output)")
    let states = output.events.named("state")
    #expect(states.filter { $0.string("plugin") == "counter" }.last?.state?["count"] as? Int == 2)
    #expect(states.filter { $0.string("plugin") == "looper" }.last?.state?["spins"] as? Int == 1)
    #expect(output.status == 1)
  }

  @Test func listShowsEachPluginsGrantsAndCost() async throws {
    let output = try await host(lines: [
      #"{"plugin": "counter", "action": "increment"}"#, #"{"command": "list"}"#,
    ])
    let list = try #require(output.events.named("plugins").first?["plugins"] as? [[String: Any]], "\(output)")
    #expect(list.map { $0["name"] as? String } == ["counter", "greeter"])
    let counter = list[0]
    #expect(counter["actions"] as? Int == 1)
    #expect(counter["status"] as? String == "running")
    #expect((counter["memory"] as? Int ?? 0) > 10_000)
    #expect((counter["timePerAction"] as? [String: Any])?["p99"] is Int)
    #expect((list[1]["granted"] as? [String: Any])?["http"] != nil)
  }

  @Test func unloadAndReloadAreCommands() async throws {
    let output = try await host(lines: [
      #"{"plugin": "counter", "action": "increment"}"#,
      #"{"command": "reload", "plugin": "counter"}"#,
      #"{"plugin": "counter", "action": "increment"}"#,
      #"{"command": "unload", "plugin": "counter"}"#,
      #"{"plugin": "counter", "action": "increment"}"#,
    ])
    #expect(output.events.named("reloaded").first?.string("plugin") == "counter")
    #expect(output.events.named("unloaded").first?.string("plugin") == "counter")
    #expect(output.events.named("state").last?.state?["count"] as? Int == 2)
    #expect(output.events.named("error").last?.string("message") == "no plugin named counter is loaded (plugins: greeter)")
  }

  @Test func aLineThatIsNotJSONIsAnInputErrorAndTheHostGoesOn() async throws {
    let output = try await host(lines: ["increment", #"{"plugin": "counter", "action": {"type": 3}}"#, #"{"plugin": "counter", "action": "increment"}"#])
    let errors = output.events.named("error")
    #expect(errors.count == 2, "\(output)")
    #expect(errors.allSatisfy { $0.string("kind") == "input" })
    #expect(output.events.named("state").last?.state?["count"] as? Int == 1)
    #expect(output.status == 1)
  }
}
