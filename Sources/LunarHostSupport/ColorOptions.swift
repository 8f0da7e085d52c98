import ArgumentParser
import Foundation

/// When lunar colours its output: `auto` (at a terminal, unless `NO_COLOR` is set), `always`, `never`.
public enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
  case auto, always, never

  /// The choice of this run (`--color`); `auto` until a command reads its options.
  public static var current: ColorChoice {
    get { setting.withLock { $0 } }
    set { setting.withLock { $0 = newValue } }
  }

  private static let setting = Locked(ColorChoice.auto)

  /// Whether output to `descriptor` is coloured.
  public func colors(for descriptor: Int32) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      // NB: no-color.org: set and not empty disables colour; the empty text does not.
      let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
      return !noColor && Terminal.isTerminal(descriptor)
    }
  }
}

/// `--color auto|always|never`, shared by the commands that print.
///
/// ```sh
/// lunar test examples --color always | less -R
/// NO_COLOR=1 lunar run examples/counter        # no colour, as with --color never
/// ```
public struct ColorOptions: ParsableArguments {
  public init() {}

  @Option(help: ArgumentHelp(
    "When to colour the output: auto (at a terminal, unless NO_COLOR is set), always or never.",
    valueName: "when"))
  public var color: ColorChoice = .auto

  // NB: the choice applies to the whole run, and is read wherever output is written: it is set as
  //     soon as the options are read, before any command prints.
  public func validate() throws {
    ColorChoice.current = color
  }
}

/// A value behind a lock, for the few settings a whole run shares.
public final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
