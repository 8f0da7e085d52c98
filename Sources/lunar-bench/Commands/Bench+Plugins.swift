import ArgumentParser
import Foundation

extension Bench {
  /// `lunar-bench plugins [PATH]`: what a plugin costs at scale.
  struct Plugins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Memory per plugin VM and per store, and ns/action over one store, many stores and many VMs.",
      discussion: """
        Loads the plugin at PATH (examples/counter by default; it must handle {type = "increment"}) \
        in --vms VMs of their own, measures their memory (malloc's count of bytes in use) and what \
        comes back when they are unloaded, then makes --stores stores of one plugin sharing its VM. \
        ns/action is measured through one store, spread over the stores, and spread over the VMs. \
        With --many N, N more stores are made at the end and their memory reported.

          swift run -c release lunar-bench plugins --many 100000
        """
    )

    @Argument(help: "A plugin folder whose feature handles {type = \"increment\"}.")
    var path: String = "examples/counter"

    @Option(help: "Stores of one plugin to spread actions over.")
    var stores = 10_000

    @Option(help: "Plugins (a VM each) to spread actions over.")
    var vms = 1_000

    @Option(help: "Actions per measurement.")
    var actions = 200_000

    @Option(help: "Repetitions; the best of each is reported.")
    var repetitions = 3

    @Option(help: "Stores to make at the end, reporting their memory (0: none).")
    var many = 0

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
      guard stores > 0, vms > 0, actions > 0, repetitions > 0, many >= 0 else {
        throw ValidationError("--stores, --vms, --actions and --repetitions must be above 0, --many 0 or more")
      }
    }

    @MainActor
    func run() async throws {
      let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
      let result = try await PluginScaleBenchmark(
        folder: folder, stores: stores, vms: vms, actions: actions, repetitions: repetitions, manyStores: many
      ).run()
      print(json ? result.json : result.text)
    }
  }
}
