import ComposableTesting
import ConcurrencyExtras
import LuaBridge
@testable import LuaFeatures
import Testing

/// Streams in effects from Swift: a dependency registered with `stream` returns an iterator that
/// an effect's `for` loop consumes as values arrive, and the effect's cancellation releases it.
@MainActor
struct EffectStreamTests {
  static let source = """
    local lunar = require "lunar"
    local fx = lunar.fx

    return lunar.feature {
      name = "Listener",
      initial = { heard = {}, ended = false },
      reduce = function(state, action, deps)
        if action.type == "listen" then
          return fx.run(function(send)
            for text in deps.speech.start() do
              send { type = "heard", text = text }
            end
            send { type = "ended" }
          end):cancellable("listening")
        elseif action.type == "stop" then
          return fx.cancel("listening")
        elseif action.type == "heard" then
          state.heard[#state.heard + 1] = action.text
        elseif action.type == "ended" then
          state.ended = true
        end
      end,
    }
    """

  /// A speech dependency whose stream the test feeds, and which notes when it terminates.
  final class Speech: Sendable {
    let continuation = LockIsolated<AsyncThrowingStream<String, any Error>.Continuation?>(nil)
    let terminated = LockIsolated(false)

    var dependencies: LuaDependencies {
      var dependencies = LuaDependencies.builtIn
      dependencies.stream("speech.start") { [self] () -> AsyncThrowingStream<String, any Error> in
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        continuation.onTermination = { [self] _ in terminated.setValue(true) }
        self.continuation.setValue(continuation)
        return stream
      }
      return dependencies
    }
  }

  @Test func anEffectLoopsOverASwiftStreamAsValuesArrive() async throws {
    let speech = Speech()
    let feature = try FeatureHarness(dependencies: speech.dependencies).load(Self.source, chunkName: "listener.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": "listen"])
    await Task.megaYield()
    speech.continuation.value?.yield("hello")
    await store.receive(["type": "heard", "text": "hello"]) { $0.heard = ["hello"] }
    speech.continuation.value?.yield("world")
    await store.receive(["type": "heard", "text": "world"]) { $0.heard = ["hello", "world"] }
    speech.continuation.value?.finish()
    await store.receive(["type": "ended"]) { $0.ended = true }
  }

  @Test func cancellingTheEffectReleasesTheSwiftStream() async throws {
    let speech = Speech()
    let feature = try FeatureHarness(dependencies: speech.dependencies).load(Self.source, chunkName: "listener.lua")
    let store = TestStore(initialState: feature.initialState) { feature.reducer() }
    await store.send(["type": "listen"])
    await Task.megaYield()
    speech.continuation.value?.yield("hello")
    await store.receive(["type": "heard", "text": "hello"]) { $0.heard = ["hello"] }
    #expect(!speech.terminated.value)
    await store.send(["type": "stop"])
    await store.finish()
    let terminated = await waitFor { speech.terminated.value }
    #expect(terminated)
  }

  private func waitFor(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<200 {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
  }
}
