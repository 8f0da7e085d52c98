// lunar-transaction-workload: the reducer transaction's workloads, for callgrind and for memory.
//
//   valgrind --tool=callgrind .build/release/lunar-transaction-workload increment 10000
//   .build/release/lunar-transaction-workload memory 100000
//   .build/release/lunar-transaction-workload reload 100000
//
// `scripts/transaction-figures` runs them all. An action workload sends one kind of action N times
// through a store and measures nothing itself: the difference between an N-action and a 2N-action
// run, divided by N, is the cost of one action. `memory ROWS` prints what a state of ROWS rows
// costs in Lua and in Swift; `reload ROWS` how long a reload that keeps such a state takes.
import Composable
import Foundation
import LuaBridge
import LuaFeatures

#if canImport(Glibc)
  import Glibc
#endif

let actionWorkloads: [String: (script: String, action: LuaValue)] = [
  // One scalar field of the root.
  "one": (Scripts.counter, ["type": "count"]),
  // The counter example's `increment`: `count + 1` and `fact = nil`.
  "increment": (Scripts.counter, ["type": "increment"]),
  // Two scalar fields of the root.
  "two": (Scripts.counter, ["type": "two"]),
  // A field of a nested table.
  "nested": (Scripts.counter, ["type": "nested"]),
  // A row of a 1,000-row `lunar.forEach` list, toggled.
  "toggle": (Scripts.todos(rows: 1000), ["type": "todos", "id": 500, "action": ["type": "toggle"]]),
  // A row appended to, or removed from, a 1,000-row list (the two alternate).
  "addRemove": (Scripts.todos(rows: 1000), ["type": "addOrRemove"]),
]

enum Scripts {
  static let counter = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Counter",
      initial = { count = 0, fact = nil, loading = false, timerRunning = false, settings = { volume = 0 } },
      reduce = function(state, action)
        local t = action.type
        if t == "increment" then
          state.count = state.count + 1
          state.fact = nil
        elseif t == "count" then
          state.count = state.count + 1
        elseif t == "two" then
          state.count = state.count + 1
          state.loading = not state.loading
        elseif t == "nested" then
          state.settings.volume = state.settings.volume + 1
        end
      end,
    }
    """

  static func todos(rows: Int) -> String {
    """
    local lunar = require "lunar"
    local Todo = lunar.feature {
      name = "Todo",
      initial = { id = 0, title = "", done = false },
      reduce = function(state, action)
        if action.type == "toggle" then state.done = not state.done end
      end,
    }
    local todos = {}
    for i = 1, \(rows) do todos[i] = { id = i, title = "row " .. i, done = false } end
    return lunar.feature {
      name = "Todos",
      initial = { todos = todos, nextID = \(rows + 1) },
      body = {
        lunar.forEach("todos", Todo),
        lunar.reduce(function(state, action)
          if action.type == "addOrRemove" then
            local n = #state.todos
            if n > \(rows) then
              state.todos[n] = nil
            else
              state.todos[n + 1] = { id = state.nextID, title = "new", done = false }
              state.nextID = state.nextID + 1
            end
          end
        end),
      },
    }
    """
  }

  /// A state of `rows` rows, made by the script's `initial` (what a reload would rebuild).
  static func rows(_ rows: Int) -> String {
    """
    local lunar = require "lunar"
    local todos = {}
    for i = 1, \(rows) do todos[i] = { id = i, title = "row " .. i, done = false } end
    return lunar.feature {
      name = "Rows",
      initial = { todos = todos, count = 0 },
      reduce = function(state, action)
        if action.type == "count" then state.count = state.count + 1 end
      end,
    }
    """
  }

  /// A feature whose state starts empty and gets `rows` rows from one action.
  static let fill = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Fill",
      initial = { count = 0 },
      reduce = function(state, action)
        if action.type == "fill" then
          local todos = {}
          for i = 1, action.rows do todos[i] = { id = i, title = "row " .. i, done = false } end
          state.todos = todos
        elseif action.type == "count" then
          state.count = state.count + 1
        end
      end,
    }
    """
}

/// The process's resident memory, in bytes (Linux: /proc/self/statm; 0 elsewhere).
func heapBytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

@MainActor
func measureMemory(rows: Int) throws {
  let host = try LuaFeatureHost(limits: .unlimited)
  let feature = try host.load(source: Scripts.fill, chunkName: "fill.lua")
  let store = Store(initialState: feature.initialState) { feature.reducer() }
  store.send(["type": "count"])
  host.vm.collectGarbage()
  let heap0 = heapBytes(), lua0 = host.vm.memoryInUse
  store.send(["type": "fill", "rows": .integer(Int64(rows))])
  store.send(["type": "count"])
  host.vm.collectGarbage()
  let heap1 = heapBytes(), lua1 = host.vm.memoryInUse
  let lua = Double(lua1 - lua0) / Double(rows)
  let swift = Double((heap1 - heap0) - (lua1 - lua0)) / Double(rows)
  print(String(format: "memory %d rows: Lua %.0f B/row, Swift %.0f B/row (after the action, nothing read)", rows, lua, swift))
  // NB: reading the state from Swift is what a view or a test does.
  let count = store.state.value[LuaString("todos")].arrayValue?.count ?? 0
  let heap2 = heapBytes()
  print(String(format: "memory %d rows: Swift %.0f B/row once the state is read (%d rows read)",
    rows, Double((heap2 - heap0) - (lua1 - lua0)) / Double(rows), count))
}

@MainActor
func measureReload(rows: Int) throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-reload-\(getpid())")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let script = folder.appendingPathComponent("feature.lua")
  try Scripts.rows(rows).write(to: script, atomically: true, encoding: .utf8)
  let host = try LuaFeatureHost(limits: .unlimited)
  let feature = try host.load(FeatureLocation(resolving: folder.path))
  let reducer = feature.reducer()
  let store = Store(initialState: feature.initialState) { reducer }
  store.send(["type": "count"])
  var best = Double.infinity
  for _ in 0..<5 {
    let start = DispatchTime.now().uptimeNanoseconds
    let newer = try host.reload(feature)
    try reducer.swap(to: newer)
    store.send(["type": "count"])
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }
  print(String(format: "reload %d rows: %.1f ms (reload, swap and the next action; best of 5)", rows, best))
}

@MainActor
func run(_ name: String, _ n: Int) throws {
  if let workload = actionWorkloads[name] {
    let host = try LuaFeatureHost(limits: .init(instructionsPerCall: 1_000_000))
    var errors = 0
    host.onError = { error in
      errors += 1
      if errors == 1 { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
    }
    let feature = try host.load(source: workload.script, chunkName: "\(name).lua")
    let store = Store(initialState: feature.initialState) { feature.reducer() }
    for _ in 0..<n { store.send(workload.action) }
    if errors > 0 { exit(1) }
    return
  }
  switch name {
  case "memory": try measureMemory(rows: n)
  case "reload": try measureReload(rows: n)
  default:
    let names = actionWorkloads.keys.sorted().joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: lunar-transaction-workload WORKLOAD N\nworkloads: \(names), memory, reload\n".utf8))
    exit(2)
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, let n = Int(arguments[1]), n > 0 else {
  FileHandle.standardError.write(Data("usage: lunar-transaction-workload WORKLOAD N\n".utf8))
  exit(2)
}
do {
  try MainActor.assumeIsolated { try run(arguments[0], n) }
} catch {
  FileHandle.standardError.write(Data("lunar-transaction-workload: \(error)\n".utf8))
  exit(1)
}
