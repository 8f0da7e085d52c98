/// The Lua sources the benchmarks measure, in one place, so that `lunar-bench` and the profiler's
/// `lunar-workload` run the same code.
///
/// ```swift
/// let bare = try BareReducerBaseline(source: BenchScripts.counterReducer, items: 10)
/// let feature = try host.load(source: BenchScripts.counterFeature(items: 10), chunkName: "bench.lua")
/// ```
public enum BenchScripts {
  /// A chunk returning `reduce(state, action)`: `increment` and `decrement` of `state.count`.
  public static let counterReducer = """
    return function(state, action)
      if action.type == "increment" then
        state.count = state.count + 1
      elseif action.type == "decrement" then
        state.count = state.count - 1
      end
    end
    """

  /// A feature over ``counterReducer`` with the state `{ count = 0, items = <items rows> }`.
  public static func counterFeature(items: Int) -> String {
    """
    local lunar = require "lunar"
    local reduce = (function() \(counterReducer) end)()
    local items = {}
    for i = 1, \(items) do items[i] = { title = "item " .. i, done = false } end
    return lunar.feature { name = "Bench", initial = { count = 0, items = items }, reduce = reduce }
    """
  }

  /// The row feature of the composition benchmark: `toggle` and `rename`.
  public static let todoFeature = """
    local lunar = require "lunar"
    return lunar.feature {
      name = "Todo",
      initial = { id = 0, title = "", done = false },
      reduce = function(state, action)
        if action.type == "toggle" then
          state.done = not state.done
        elseif action.type == "rename" then
          state.title = action.title
        end
      end,
    }
    """

  /// A parent of `rows` ``todoFeature`` rows through `lunar.forEach("todos", Todo)`, with a
  /// `lunar.reduce` of its own.
  public static func todoList(rows: Int) -> String {
    """
    local lunar = require "lunar"
    local Todo = (function() \(todoFeature) end)()
    local todos = {}
    for i = 1, \(rows) do todos[i] = { id = i, title = "row " .. i, done = false } end
    return lunar.feature {
      name = "Todos",
      initial = { todos = todos, toggled = 0 },
      body = {
        lunar.forEach("todos", Todo),
        lunar.reduce(function(state, action)
          if action.type == "clearDone" then
            state.toggled = 0
          end
        end),
      },
    }
    """
  }
}
