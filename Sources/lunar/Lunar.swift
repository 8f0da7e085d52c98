import ArgumentParser

/// The `lunar` command: run, test, check and measure features written in Lua.
@main
struct Lunar: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lunar",
    abstract: "Run, test and measure features written in Lua on The Composable Architecture.",
    discussion: """
      A feature is a Lua file that returns `lunar.feature { … }`: its state, and a reducer that \
      evolves it and describes effects. Lunar's Swift core runs the store, the effects and the \
      dependencies.
      """,
    subcommands: [Run.self, Test.self, Check.self, List.self, New.self, Replay.self, Bench.self]
  )
}
