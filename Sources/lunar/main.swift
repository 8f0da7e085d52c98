import ArgumentParser

@main
struct Lunar: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "lunar", abstract: "Run, test and measure Lua features.")
}
