import Foundation
import Testing

/// Feature scripts that are broken or hostile: `lunar check` names each problem, and `lunar run`
/// reports the runtime ones and goes on serving.
@Suite struct HostileCorpusTests {
  struct Problem: Sendable, CustomStringConvertible {
    var script: String
    var message: String
    var line: Int?
    var description: String { script }
  }

  static let sandbox = "(features have string, table, math, utf8 and safe base functions)"

  /// What `lunar check` reports for each script it can judge without running it.
  static let checked: [Problem] = [
    Problem(script: "syntax_error.lua", message: "unexpected symbol near '='", line: 6),
    Problem(
      script: "returns_nothing.lua",
      message: "returns_nothing.lua must return lunar.feature { name = …, initial = {…}, reduce = function … }, but returned nothing"
    ),
    Problem(
      script: "returns_number.lua",
      message: "returns_number.lua must return lunar.feature { name = …, initial = {…}, reduce = function … }, but returned number"
    ),
    Problem(script: "missing_initial.lua", message: "feature MissingInitial needs an `initial` state table, got nil", line: 4),
    Problem(
      script: "missing_reduce.lua",
      message: "feature MissingReduce needs a `reduce = function(state, action, deps)` (or a `body = { … }`), got nil", line: 4
    ),
    Problem(
      script: "require_escape.lua",
      message: "module name '../x' is not allowed: '..' is not allowed (modules resolve inside the feature's folder)", line: 3
    ),
    Problem(script: "os_execute.lua", message: "os.execute: `os` is not available to features \(sandbox)", line: 9),
    Problem(script: "io_open.lua", message: "io.open: `io` is not available to features \(sandbox)", line: 9),
    Problem(
      script: "binary_chunk.lua",
      message: "string.dump: binary chunks cannot be loaded (load accepts Lua source text only)", line: 10
    ),
    Problem(
      script: "unknown_effect.lua",
      message: "unknown effect fx.bogus (effects: cancel, concat, debounce, dismiss, merge, none, run, send, throttle)", line: 10
    ),
    Problem(
      script: "unknown_dependency.lua",
      message: "deps.nope.call is not provided by this host (it has: clock.sleep, files.exists, files.list, files.read, http.get, http.request, now, storage.delete, storage.get, storage.keys, storage.set, uuid)",
      line: 9
    ),
  ]

  @Test(arguments: checked)
  func checkReportsTheProblemWithItsLocation(_ problem: Problem) async throws {
    let output = try await Lunar.run(["check", Lunar.hostile(problem.script), "--json"])

    #expect(output.status == 1, "\(output)")
    let report = try #require(output.events.first, "\(output)")
    #expect(report["ok"] as? Bool == false)
    let problems = report["problems"] as? [[String: Any]] ?? []
    #expect(problems.count == 1, "\(output)")
    let first = try #require(problems.first)
    #expect(first["message"] as? String == problem.message, "\(output)")
    #expect(first["file"] as? String == problem.script, "\(output)")
    #expect((first["line"] as? Int) == problem.line, "\(output)")
  }

  @Test func checkPrintsFileLineAndMessageForAPerson() async throws {
    let output = try await Lunar.run(["check", Lunar.hostile("syntax_error.lua"), Lunar.hostile("returns_nothing.lua")])

    #expect(output.status == 1, "\(output)")
    #expect(output.lines.contains("    syntax_error.lua:6: unexpected symbol near '='"), "\(output)")
    #expect(output.lines.contains(
      "    returns_nothing.lua: returns_nothing.lua must return lunar.feature { name = …, initial = {…}, reduce = function … }, but returned nothing"
    ), "\(output)")
  }

  @Test func checkOfTheWholeCorpusFailsAndNamesEveryScript() async throws {
    let scripts = try FileManager.default.contentsOfDirectory(atPath: Lunar.hostile("")).filter { $0.hasSuffix(".lua") }.sorted()
    let output = try await Lunar.run(["check", "--json"] + scripts.map(Lunar.hostile))

    #expect(output.status == 1, "\(output)")
    let failing = Set(output.events.filter { $0["ok"] as? Bool == false }.compactMap { $0.string("path") }.map { ($0 as NSString).lastPathComponent })
    #expect(failing == Set(Self.checked.map(\.script)), "\(output)")
  }

  @Test func checkOfAFolderWithoutFeaturesIsAnError() async throws {
    let output = try await Lunar.run(["check", Lunar.hostile("")])

    #expect(output.status == 64, "\(output)")
    #expect(output.stderr.contains("no features under"), "\(output)")
  }

  @Test func runOfAScriptThatDoesNotLoadIsALoadErrorAtTheScriptsLine() async throws {
    let output = try await Lunar.run(["run", Lunar.hostile("missing_initial.lua")], input: "increment\n")

    #expect(output.status == 1, "\(output)")
    #expect(output.lines.count == 1, "\(output)")
    let error = try #require(output.events.first)
    #expect(error.name == "error")
    #expect(error.string("kind") == "load")
    #expect(error.string("message") == "feature MissingInitial needs an `initial` state table, got nil")
    #expect(error.string("file") == "missing_initial.lua")
    #expect(error.int("line") == 4)
  }

  @Test func checkKnowsEveryEffect() async throws {
    let output = try await Lunar.run(["check", Lunar.fixture("all_effects")])

    #expect(output.status == 0, "\(output)")
  }

  @Test func checkKnowsTheMethodsOfTheFeaturesLuaClients() async throws {
    let output = try await Lunar.run(["check", "Tests/LuaFeaturesTests/Fixtures/clients"])

    #expect(output.status == 0, "\(output)")
  }

  @Test func checkPassesTheCounterExample() async throws {
    let output = try await Lunar.run(["check", "examples/counter"])

    #expect(output.status == 0, "\(output)")
    #expect(output.lines == ["✔ examples/counter/feature.lua  Counter  plugin counter 1.0.0, asks for http (numbersapi.com)"])
  }

  @Test func checkOfAFeatureThatDoesNotLoadReportsTheLoadErrorAloneNotItsClientsUses() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    let counter = folder.appendingPathComponent("counter")
    try FileManager.default.copyItem(at: Lunar.packageRoot.appendingPathComponent("examples/counter"), to: counter)
    let script = counter.appendingPathComponent("feature.lua")
    let source = try String(contentsOf: script, encoding: .utf8)
    let range = try #require(source.range(of: "state.count = state.count + 1"))
    try source.replacingCharacters(in: range, with: "state.count = state.count +").write(to: script, atomically: true, encoding: .utf8)

    let output = try await Lunar.run(["check", counter.path])

    #expect(output.status == 1, "\(output)")
    // NB: Lua stops at the `=` of the line after the broken one.
    let broken = source[..<range.lowerBound].filter { $0 == "\n" }.count + 2
    #expect(output.lines.dropFirst() == ["    feature.lua:\(broken): unexpected symbol near '='"], "\(output)")
  }

  /// Scripts that load, and fail only when an action runs.
  struct RuntimeFailure: Sendable, CustomStringConvertible {
    var script: String
    var action: String
    var message: String
    var line: Int?
    var description: String { "\(script) \(action)" }
  }

  static let runtime: [RuntimeFailure] = [
    RuntimeFailure(script: "os_execute.lua", action: "shell", message: "os_execute.lua:9: attempt to call a nil value (field 'execute')", line: 9),
    RuntimeFailure(script: "io_open.lua", action: "read", message: "io_open.lua:9: attempt to call a nil value (field 'open')", line: 9),
    RuntimeFailure(script: "binary_chunk.lua", action: "load", message: "binary_chunk.lua:10: attempt to call a nil value", line: 10),
    RuntimeFailure(script: "odd_errors.lua", action: "table", message: "error object is a table: { code = 42 }", line: 10),
    RuntimeFailure(script: "odd_errors.lua", action: "nil", message: "error object is nil", line: 12),
    RuntimeFailure(script: "odd_errors.lua", action: "number", message: "error object is a number: 3.5", line: 14),
    RuntimeFailure(script: "odd_errors.lua", action: "boolean", message: "error object is a boolean: false", line: 16),
    RuntimeFailure(script: "odd_errors.lua", action: "function", message: "error object is a function value", line: 18),
    RuntimeFailure(script: "odd_errors.lua", action: "metatable", message: "custom error", line: 20),
    RuntimeFailure(
      script: "unknown_effect.lua", action: "bogus",
      message: #"unknown_effect.lua:10: lunar.fx has no effect named "bogus" (effects: none, send, run, merge, concat, cancel, debounce, throttle, dismiss)"#,
      line: 10
    ),
    RuntimeFailure(
      script: "unknown_dependency.lua", action: "nope",
      message: #"unknown_dependency.lua:9: deps has no "nope" (it has: clock, files, http, now, storage, uuid)"#, line: 9
    ),
    RuntimeFailure(script: "memory_bomb.lua", action: "explode", message: "ran out of memory: not enough memory", line: nil),
    RuntimeFailure(
      script: "author_mistakes.lua", action: "callback",
      message: "author_mistakes.lua:12: cannot store a function in state (field 'onTap'): state holds data only (nil, booleans, numbers, strings and tables); keep functions in the feature's module",
      line: 12
    ),
    RuntimeFailure(
      script: "author_mistakes.lua", action: "nestedCallback",
      message: #"author_mistakes.lua:14: cannot store a function in state (at "onTap" of an assigned table): state holds data only (nil, booleans, numbers, strings and tables); keep functions in the feature's module"#,
      line: 14
    ),
    RuntimeFailure(
      script: "author_mistakes.lua", action: "sendString",
      message: #"author_mistakes.lua:16: fx.send expects an action table like { type = "increment" }, got "increment""#, line: 16
    ),
    RuntimeFailure(
      script: "author_mistakes.lua", action: "sendStringKept",
      message: #"author_mistakes.lua:18: fx.send expects an action table like { type = "increment" }, got "increment""#, line: 18
    ),
    RuntimeFailure(
      script: "composition_mistakes.lua", action: "duplicate",
      message: "composition_mistakes.lua:18: two elements of state.rows have the id 1", line: 18
    ),
  ]

  @Test func anEffectsErrorNamesTheAuthorsLineAndShowsOnlyTheAuthorsFrames() async throws {
    let output = try await Lunar.run(["run", Lunar.hostile("author_mistakes.lua"), "--keep-going"], input: "effectRaises\n")

    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "effect")
    #expect(error.string("message") == "author_mistakes.lua:22: the server said no", "\(output)")
    #expect(error.string("file") == "author_mistakes.lua")
    #expect(error.int("line") == 22)
    let traceback = try #require(error.string("traceback"), "\(output)")
    #expect(traceback.contains("author_mistakes.lua:22:"), "\(traceback)")
    #expect(!traceback.contains("lunar/") && !traceback.contains("[C]"), "\(traceback)")
  }

  @Test func anEffectBuiltAndNotReturnedIsAWarningNamingItsLine() async throws {
    let output = try await Lunar.run(["run", Lunar.hostile("author_mistakes.lua")], input: "dropEffect\nincrement\n")

    #expect(output.status == 0, "\(output)")
    let warnings = output.events.named("warning").compactMap { $0.string("message") }
    #expect(warnings == [
      "author_mistakes.lua:25: an effect (fx.run) was built but not returned, so it never runs: `return` it from the reducer, or combine several with fx.merge(…)"
    ], "\(output)")
  }

  @Test func anEffectBuiltByAFailedActionIsNeitherRunNorReportedLater() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.hostile("author_mistakes.lua"), "--keep-going"],
      input: "dropEffectAndFail\nreturnEffect\ndropEffect\nincrement\n"
    )

    let errors = output.events.named("error").compactMap { $0.string("message") }
    #expect(errors == ["author_mistakes.lua:28: failed after building an effect"], "\(output)")
    let warnings = output.events.named("warning").compactMap { $0.string("message") }
    #expect(warnings.count == 1 && warnings.allSatisfy { $0.hasPrefix("author_mistakes.lua:25: ") }, "\(output)")
    #expect(output.events.named("state").map { $0.state?["count"] as? Int }.last == 1, "\(output)")
  }

  @Test(arguments: runtime)
  func runReportsTheErrorAndKeepsServing(_ failure: RuntimeFailure) async throws {
    let output = try await Lunar.run(
      // NB: a generous time limit, so that a slow machine meets the memory ceiling before the clock.
      ["run", Lunar.hostile(failure.script), "--keep-going", "--time-limit", "60"], input: "\(failure.action)\nincrement\n"
    )

    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "reducer")
    #expect(error.string("message") == failure.message, "\(output)")
    #expect(error.int("line") == failure.line, "\(output)")
    #expect(error.string("file") == (failure.line == nil ? nil : failure.script), "\(output)")
    #expect(error.actionType == failure.action)
    let states = output.events.named("state")
    #expect(states.map { $0.state?["count"] as? Int } == [0, 1], "state unchanged, then the next action served\n\(output)")
  }

  @Test func anEndlessLoopRunsOutOfItsBudgetAndTheHostGoesOn() async throws {
    let output = try await Lunar.run(
      ["run", Lunar.hostile("infinite_loop.lua"), "--keep-going", "--time-limit", "60"], input: "spin\nincrement\n"
    )

    #expect(output.status == 1, "\(output)")
    let error = try #require(output.events.named("error").first, "\(output)")
    #expect(error.string("kind") == "reducer")
    #expect(error.string("message")?.contains("ran out of its instruction budget (an endless loop?)") == true, "\(output)")
    #expect(error.string("traceback")?.contains("infinite_loop.lua:10: in function <infinite_loop.lua:7>") == true, "\(output)")
    #expect(error.string("file") == "infinite_loop.lua", "\(output)")
    #expect(error.int("line") == 10, "\(output)")
    #expect(output.events.named("state").map { $0.state?["count"] as? Int } == [0, 1], "\(output)")
  }

  @Test func theSandboxLeftNoTraceOnDisk() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }

    _ = try await Lunar.run(["run", Lunar.hostile("os_execute.lua"), "--keep-going"], input: "shell\n", in: folder)

    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("pwned").path))
  }
}
