import ArgumentParser

/// `--devtools [PORT]` and `--devtools-history`, shared by the commands that run a session.
///
/// ```sh
/// lunar run examples/counter --devtools          # any free port, printed on standard error
/// lunar run examples/counter --devtools 7357
/// ```
struct DevtoolsOptions: ParsableArguments {
  @Option(
    name: .customLong("devtools"),
    help: ArgumentHelp(
      "Serve the devtools page on 127.0.0.1:PORT (without PORT, or 0: a free port); its address, with the token it needs, is printed on standard error.",
      valueName: "port"))
  var port: Int?

  @Option(
    name: .customLong("devtools-history"),
    help: ArgumentHelp("Entries the devtools page keeps (the oldest are forgotten first).", valueName: "count"))
  var history = 1000

  /// Whether the page is asked for.
  var enabled: Bool { port != nil }

  func validate() throws {
    if let port, !(0...65535).contains(port) {
      throw ValidationError("--devtools takes a port from 1 to 65535 (or 0 for any free one), got \(port)")
    }
    guard history >= 1 else { throw ValidationError("--devtools-history must be 1 or more, got \(history)") }
  }

  /// `arguments` with a bare `--devtools` (not followed by a port) given its default port, 0.
  ///
  /// NB: an option's value cannot be optional in the argument parser; `--devtools` alone reads
  ///     best, so it is completed here before parsing.
  static func completing(_ arguments: [String]) -> [String] {
    var result: [String] = []
    for (index, argument) in arguments.enumerated() {
      result.append(argument)
      guard argument == "--devtools" else { continue }
      let next = index + 1 < arguments.count ? arguments[index + 1] : nil
      if next.flatMap({ Int($0) }) == nil { result.append("0") }
    }
    return result
  }
}
