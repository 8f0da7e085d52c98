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

      Start with:
        lunar run examples/counter     type actions, watch the state change
        lunar host examples            every plugin of a folder in one host
        lunar test examples            run the features' *_test.lua files
        lunar new my_feature           scaffold a feature and its test

      Shell completions: lunar --generate-completion-script bash (or zsh, fish) prints a \
      script; for example
        lunar --generate-completion-script bash \\
          > ~/.local/share/bash-completion/completions/lunar
        lunar --generate-completion-script zsh > "${fpath[1]}/_lunar"
        lunar --generate-completion-script fish \\
          > ~/.config/fish/completions/lunar.fish
      """,
    version: Lunar.version,
    subcommands: [Run.self, HostCommand.self, Test.self, Check.self, List.self, New.self, Replay.self]
  )

  static func main() async {
    HelpWidth.applyMinimum()
    await main(DevtoolsOptions.completing(Array(CommandLine.arguments.dropFirst())))
  }
}
