// lunar-workload: runs one benchmark workload N times and measures nothing, for profilers.
//
//   valgrind --tool=callgrind .build/release/lunar-workload lua 10000
//
// Instruction counts from callgrind do not depend on the machine's load, where times do; the
// difference between an N-action and a 2N-action run, divided by N, is the cost of one action
// (`scripts/instructions` does exactly that). A synchronous main: valgrind does not run `lunar`'s
// async one.
import Composable
import Foundation
import LuaBridge
import LuaBridgeBench
import LuaFeatures
import LunarBench

let usage = """
  usage: lunar-workload WORKLOAD N
  workloads: bare, floor, lua, lua-unbudgeted, lone, compose, heavy-loop, heavy-sort (and -stock), \
  \(BridgeBenchmark.Workload.allCases.map(\.rawValue).joined(separator: ", "))
  the action mix, for each of \(MixWorkload.allCases.map(\.rawValue).joined(separator: ", ")):
    lunar-NAME   through Lunar's Store.send, the state unread (a view of the table in Lua)
    read-NAME    the same, the state read after the first action (each action patches a copy)
    redux-NAME   the same action in a Redux-style store in plain Lua
    rodux-NAME   the same action through Rodux's Store:dispatch (LUNAR_RODUX: Rodux's src folder)
  """

/// Lua-heavy reducers, under the default limits, and the same Lua for stock `lua5.4`
/// (`heavy-loop-stock N` prints it as a script running N actions): `heavy(state)` is the action.
let heavyLua: [String: String] = [
  "loop": "local function heavy(state) local s = 0 for i = 1, 20000 do s = s + i % 7 end state.n = s end",
  "sort": """
    local function heavy(state)
      local t = {} for i = 1, 500 do t[i] = (i * 7919) % 1000 end
      table.sort(t, function(a, b) return a > b end) state.n = t[1]
    end
    """,
]

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let times = Int(arguments.last!), times > 0 else {
  FileHandle.standardError.write(Data((usage + "\n").utf8))
  exit(2)
}
let name = arguments.first!

@MainActor
func send(_ action: LuaValue, times: Int, to feature: LuaFeature, from state: LuaState) {
  let store = Store(initialState: state) { feature.reducer() }
  for _ in 0..<times { _ = store.send(action) }
}

/// `lunar-toggleRow` → ("lunar", .toggleRow); nil for any other name.
func mixWorkload(_ name: String) -> (String, MixWorkload)? {
  guard let dash = name.firstIndex(of: "-") else { return nil }
  let side = String(name[..<dash])
  guard ["lunar", "read", "redux", "rodux"].contains(side), let workload = MixWorkload(rawValue: String(name[name.index(after: dash)...]))
  else { return nil }
  return (side, workload)
}

@MainActor
func run() throws {
  if let workload = BridgeBenchmark.Workload(rawValue: name) {
    try BridgeBenchmark.repeatWorkload(workload, times: times)
    return
  }
  if let (side, workload) = mixWorkload(name) {
    switch side {
    case "lunar": try workload.runLunar(times: times)
    case "read": try workload.runLunar(times: times, read: true)
    case "redux": try workload.runRedux(times: times)
    default:
      guard let rodux = MixWorkload.ReduxStore.roduxFromEnvironment else {
        FileHandle.standardError.write(Data("\(name): set LUNAR_RODUX to the src folder of a Rodux checkout\n".utf8))
        exit(2)
      }
      try workload.runRedux(times: times, store: rodux)
    }
    return
  }
  switch name {
  case "bare":
    _ = try BareReducerBaseline(source: BenchScripts.counterReducer, items: 10).measure(iterations: times, repetitions: 1)
  case "floor":
    _ = try JournalFloorBaseline(source: BenchScripts.counterReducer, items: 10).measure(iterations: times, repetitions: 1)
  case "lua", "lua-unbudgeted":
    let host = try LuaFeatureHost(limits: .init(instructionsPerCall: name == "lua" ? 1_000_000 : nil))
    let feature = try host.load(
      source: BenchScripts.counterFeature(items: 10),
      chunkName: "bench.lua"
    )
    send(["type": "increment"], times: times, to: feature, from: feature.initialState)
  case "lone":
    let host = try LuaFeatureHost(limits: .init(instructionsPerCall: 1_000_000))
    let todo = try host.load(source: BenchScripts.todoFeature, chunkName: "todo.lua")
    send(["type": "toggle"], times: times, to: todo, from: LuaState(["id": 500, "title": "row", "done": false]))
  case "compose":
    let host = try LuaFeatureHost(limits: .init(instructionsPerCall: 1_000_000))
    let list = try host.load(
      source: BenchScripts.todoList(rows: 1000),
      chunkName: "todos.lua"
    )
    send(["type": "todos", "id": 500, "action": ["type": "toggle"]], times: times, to: list, from: list.initialState)
  case "heavy-loop", "heavy-sort":
    let host = try LuaFeatureHost()
    let body = heavyLua[String(name.dropFirst(6))]!
    let feature = try host.load(
      source: body + "\nreturn require('lunar').feature { name = 'Heavy', initial = { n = 0 }, reduce = function(state) heavy(state) end }",
      chunkName: "heavy.lua")
    send(["type": "go"], times: times, to: feature, from: feature.initialState)
  case "heavy-loop-stock", "heavy-sort-stock":
    let body = heavyLua[String(name.dropFirst(6).dropLast(6))]!
    print(body + "\nlocal state = { n = 0 } for _ = 1, \(times) do heavy(state) end")
  default:
    FileHandle.standardError.write(Data("unknown workload \(name)\n\(usage)\n".utf8))
    exit(2)
  }
}

do {
  try MainActor.assumeIsolated { try run() }
} catch {
  FileHandle.standardError.write(Data("lunar-workload: \(error)\n".utf8))
  exit(1)
}
