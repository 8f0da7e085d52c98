import Foundation
import LuaBridge
import LunarHostSupport

/// Turns a recorded session into an exhaustive `lunar.test` file: the bug you met at the prompt,
/// as a regression test that passes at once and fails as soon as the feature behaves otherwise.
///
/// ```swift
/// let recording = try Recording(contentsOf: "session.jsonl")
/// let text = try RecordingTestWriter(recording: recording, module: "feature").luaTest()
/// // local test = require "lunar.test"
/// // local Feature = require "feature"
/// // …
/// // test("the recorded session", function()
/// //   local store = test.store(Feature, { initial = {…}, deps = mocks(), clients = { "factClient" } })
/// //   store:send({type = "factTapped"}, function(state)
/// //     state.loading = true
/// //   end)
/// //   store:receive({fact = "0 is …", type = "factLoaded"}, function(state) … end)
/// // end)
/// ```
///
/// What the test holds:
/// - **the state it started from**, shared values included (`initial`);
/// - **every action**: each typed action is a `send`, each action an effect sent a `receive` of the
///   whole action, in the recorded order, each with the state change it made (or none);
/// - **the time between them** as `store:advance(seconds)` on the test clock, so debounces,
///   throttles and `deps.clock.sleep` fire where they did;
/// - **every dependency result** as a mock answering the recorded calls in order (an error as an
///   error); the feature's Lua clients run for real over those mocks;
/// - `store:skipInFlight()` when effects were still running as the session ended.
///
/// > Important: A mock answers at once. An effect whose answer came after a later typed action in
/// > the recording (a slow request) arrives before that action in the test, which then fails on
/// > the unreceived action: record with `:wait` after such an action.
struct RecordingTestWriter {
  let recording: Recording
  /// What the test file passes to `require` to load the feature (`feature` for `feature.lua`).
  let module: String
  /// Names the test: `the session recorded in session.jsonl`.
  var recordingName: String?

  /// The dependencies a test leaves to the test store: the clock, which `store:advance` moves.
  static let unmocked: Set<String> = ["clock.sleep"]

  /// The text of the test file.
  ///
  /// - Throws: ``RecordError`` for a recording without the states a test needs (one written by an
  ///   early version of lunar).
  func luaTest() throws -> String {
    guard recording.version >= 2, let initial = recording.initialState else {
      throw RecordError(
        "this recording was made by an earlier version of lunar, which did not record every state: record the session again")
    }
    var out = header()
    let answers = recording.results.filter { !Self.unmocked.contains($0.key) && !$0.value.isEmpty }
    if !answers.isEmpty { out += mocks(answers) }
    let name = recordingName.map { "the session recorded in \(($0 as NSString).lastPathComponent)" } ?? "the recorded session"
    out += "test(\(LuaSource.string(name)), function()\n"
    out += storeLine(initial: initial, mocked: !answers.isEmpty)
    var state = initial
    // NB: nothing runs before the first action: the clock starts there.
    let start = recording.steps.first?.time.map { ($0 * 1000).rounded(.down) / 1000 } ?? 0
    var clock = start
    for step in recording.steps {
      if let time = step.time {
        // NB: whole milliseconds, rounded down: the test clock never runs ahead of the recorded
        //     one, so nothing fires earlier than it did.
        let target = (time * 1000).rounded(.down) / 1000
        if target > clock {
          out += "  store:advance(\(Self.seconds(target - clock)))\n"
          clock = target
        }
      }
      let after = step.state ?? state
      let call = step.fromInput ? "send" : "receive"
      let changes = StateAssignments.lines(from: state, to: after)
      let action = LuaNotation.block.text(step.action, indent: "  ")
      if changes.isEmpty {
        out += "  store:\(call)(\(action))\n"
      } else {
        out += "  store:\(call)(\(action), function(state)\n"
        for line in changes { out += indented(line, by: "    ") + "\n" }
        out += "  end)\n"
      }
      state = after
    }
    if (recording.end?.running ?? 0) > 0 || recording.end == nil {
      out += "  store:skipInFlight()   -- effects were still running when the session ended\n"
    }
    out += "end)\n"
    return out
  }

  private func header() -> String {
    var out = "-- A session recorded with `lunar run --record`, written as a test by `lunar replay --as-test`.\n"
    out += "-- Every action, state change and dependency result of the session is asserted: edit freely.\n"
    if recording.seed != 0 {
      out += "-- The session ran with --seed \(recording.seed); tests seed math.random with 0.\n"
    }
    out += "local test = require \"lunar.test\"\n"
    out += "local Feature = require \(LuaSource.string(module))\n\n"
    return out
  }

  private func mocks(_ answers: [String: [RecordedResult]]) -> String {
    var out = "-- What each dependency answered, call by call.\n"
    out += "local answers = {\n"
    for name in answers.keys.sorted() {
      out += "  [\(LuaSource.string(name))] = {\n"
      for result in answers[name]! {
        switch result {
        case let .value(value): out += "    { value = \(LuaNotation.block.text(value, indent: "    ")) },\n"
        case let .error(message): out += "    { error = \(LuaSource.string(message)) },\n"
        case .cancelled: out += "    { cancelled = true },\n"
        }
      }
      out += "  },\n"
    }
    out += "}\n\n"
    out += """
      -- A mock answering the recorded calls of deps.<name> in order.
      local function answering(name)
        local calls = 0
        return function()
          calls = calls + 1
          local answer = answers[name][calls]
          assert(answer and not answer.cancelled, "deps." .. name .. " was called more often than in the recording")
          if answer.error then error(answer.error, 0) end
          return answer.value
        end
      end

      -- Every recorded dependency, mocked: { http = { get = answering("http.get") }, … }.
      local function mocks()
        local deps = {}
        for name in pairs(answers) do
          local parts = {}
          for part in name:gmatch("[^.]+") do parts[#parts + 1] = part end
          local scope = deps
          for i = 1, #parts - 1 do
            scope[parts[i]] = scope[parts[i]] or {}
            scope = scope[parts[i]]
          end
          scope[parts[#parts]] = answering(name)
        end
        return deps
      end


      """
    return out
  }

  private func storeLine(initial: LuaValue, mocked: Bool) -> String {
    var options: [String] = ["initial = \(LuaNotation.block.text(initial, indent: "    "))"]
    if mocked { options.append("deps = mocks()") }
    if !recording.clients.isEmpty {
      options.append("clients = { " + recording.clients.map(LuaSource.string).joined(separator: ", ") + " }")
    }
    return "  local store = test.store(Feature, {\n" + options.map { "    \($0),\n" }.joined() + "  })\n"
  }

  private func indented(_ text: String, by prefix: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
  }

  private static func seconds(_ value: Double) -> String {
    String(format: "%.3f", value).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
  }
}
