import Foundation
import Testing

/// A feature's `view` renders the state; it never changes it.
@Suite struct ViewRenderingTests {
  static let feature = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Scribbler",
      initial = { count = 0, items = { "b", "a" } },
      reduce = function(state, action)
        if action.type == "increment" then state.count = state.count + 1 end
      end,
      view = function(state)
        table.sort(state.items)
        state.count = 100
        return "count " .. state.count .. " " .. table.concat(state.items, ",")
      end,
    }
    """

  @Test func aViewThatWritesIntoItsStateLeavesTheRunningStateAsItWas() async throws {
    let folder = try makeTemporaryFolder()
    defer { removeTemporaryFolder(folder) }
    try Data(Self.feature.utf8).write(to: folder.appendingPathComponent("feature.lua"))

    let output = try await Lunar.run(["run", folder.path, "--view", "--time-limit", "60"], input: "increment\nincrement\n:view\n")

    #expect(output.status == 0, "\(output)")
    #expect(output.lines == [
      #"{"event":"ready","feature":"Scribbler","state":{"count":0,"items":["b","a"]},"view":"count 100 a,b"}"#,
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","patch":[{"op":"set","path":["count"],"value":1}],"view":"count 100 a,b"}"#,
      #"{"action":{"type":"increment"},"event":"action","source":"input"}"#,
      #"{"changed":true,"event":"state","patch":[{"op":"set","path":["count"],"value":2}],"view":"count 100 a,b"}"#,
      #"{"event":"note","message":"count 100 a,b"}"#,
    ])
  }
}
