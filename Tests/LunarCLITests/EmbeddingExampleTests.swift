import Foundation
import Testing

/// `lunar-embed`, the Swift app that embeds the example plugins (docs/plugins-swift.md).
struct EmbeddingExampleTests {
  @Test func theEmbeddingExampleRunsTheExamplePluginsAndFreesThem() async throws {
    let output = try await Lunar.run(["examples"], program: "lunar-embed")

    #expect(output.status == 0, "\(output)")
    #expect(output.lines.contains("loaded counter 1.0.0: asks for http (numbersapi.com), granted http (numbersapi.com)"), "\(output)")
    #expect(output.lines.contains("loaded todos 1.0.0: asks for storage, granted storage"), "\(output)")
    #expect(output.lines.contains { $0.hasPrefix("counter: count = 3, view:") }, "\(output)")
    #expect(output.lines.contains("a second session: count = 1 (the main session still has 3)"), "\(output)")
    #expect(output.lines.contains("a Swift dashboard: taps = 2, its counter's count = 2"), "\(output)")
    #expect(output.lines.contains("typed counter: fact = 0 is the additive identity., loading = false"), "\(output)")
    // The label renders at first, not after the fact (which leaves the count as it was), and again
    // after the increment.
    #expect(output.lines.filter { $0.hasPrefix("count label:") || $0.hasPrefix("typed counter:") } == [
      "count label: 0",
      "typed counter: fact = 0 is the additive identity., loading = false",
      "count label: 1",
    ], "\(output)")
    #expect(output.lines.contains { $0.hasPrefix("cost of counter: 6 actions, p50 ") }, "\(output)")
    #expect(output.lines.contains("unloaded counter"), "\(output)")
    #expect(output.lines.last == "every plugin's VM was freed", "\(output)")
  }
}
