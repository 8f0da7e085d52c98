import Composable
import Foundation

/// The store's overhead: `Store.send` of an action whose reducer returns `.none`, against calling the
/// same reducer directly on a local state.
@MainActor
struct CoreBenchmark {
  let iterations: Int
  let repetitions: Int

  struct Result {
    var bareNanoseconds: Double
    var storeNanoseconds: Double
    var iterations: Int
    var ratio: Double { storeNanoseconds / bareNanoseconds }
    var millionSendsSeconds: Double { storeNanoseconds * 1_000_000 / 1e9 }

    var table: String {
      """
      core: Store.send vs a bare reducer call (\(iterations) actions, best of runs)
        bare reducer call   \(formatted(bareNanoseconds)) ns/action
        Store.send          \(formatted(storeNanoseconds)) ns/action
        ratio               \(formatted(ratio))×
        1,000,000 sends     \(String(format: "%.3f", millionSendsSeconds)) s
      """
    }

    var json: String {
      """
      {"benchmark":"core","iterations":\(iterations),"bareNs":\(bareNanoseconds),\
      "storeNs":\(storeNanoseconds),"ratio":\(ratio),"millionSendsSeconds":\(millionSendsSeconds)}
      """
    }
  }

  func run() -> Result {
    let reducer = BenchCounter()
    let bare = bestNanosecondsPerOperation(operations: iterations, repetitions: repetitions) {
      var state = BenchCounter.State()
      for index in 0..<iterations {
        blackHole(bareReduce(reducer, &state, index & 1 == 0 ? .increment : .decrement))
      }
      blackHole(state)
    }
    let store = Store(initialState: BenchCounter.State()) { BenchCounter() }
    let sent = bestNanosecondsPerOperation(operations: iterations, repetitions: repetitions) {
      for index in 0..<iterations {
        blackHole(store.send(index & 1 == 0 ? .increment : .decrement))
      }
    }
    return Result(bareNanoseconds: bare, storeNanoseconds: sent, iterations: iterations)
  }
}

/// The bare call: the reducer function itself, kept out of line so the loop cannot be folded away.
@inline(never)
func bareReduce(_ reducer: BenchCounter, _ state: inout BenchCounter.State, _ action: BenchCounter.Action) -> Effect<BenchCounter.Action> {
  reducer.reduce(into: &state, action: action)
}

/// A counter whose actions never start effects: what the benchmark sends.
struct BenchCounter: Reducer {
  struct State: Equatable {
    var count = 0
    var steps = 0
  }

  enum Action: Sendable {
    case increment
    case decrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count &+= 1
    case .decrement: state.count &-= 1
    }
    state.steps &+= 1
    return .none
  }
}
