/// One parser of untrusted input, driven by arbitrary bytes: what `scripts/fuzz` runs under
/// libFuzzer, and what the fuzz corpus tests replay.
///
/// A target feeds its bytes to the real parser and lets it refuse them with its error: an error is
/// the expected answer to hostile input. A trap (an overflow, a bad index, a force unwrap), a
/// sanitizer report, or a broken property that the target checks is a finding.
///
/// ```swift
/// let json = FuzzTarget.named("json")!
/// json.run(Array(#"{"type": "increment"}"#.utf8))   // returns: the input is fine or refused
/// ```
///
/// > Important: A target must be cheap and bounded per input (small limits on the VM), or the
/// > fuzzer spends its time in one slow input instead of exploring.
public struct FuzzTarget: Sendable {
  /// The name `scripts/fuzz` and `LUNAR_FUZZ_TARGET` use (`action-line`, `json`, …).
  public let name: String
  /// What input it reads, in a few words.
  public let summary: String
  private let body: @MainActor @Sendable ([UInt8]) -> Void

  init(name: String, summary: String, body: @escaping @MainActor @Sendable ([UInt8]) -> Void) {
    self.name = name
    self.summary = summary
    self.body = body
  }

  /// Feeds `input` to the parser; returns when the parser accepted or refused it.
  @MainActor public func run(_ input: [UInt8]) {
    body(input)
  }

  /// Every target, one per parser of untrusted input.
  public static let all: [FuzzTarget] = [
    .actionLine, .json, .luaValue, .manifest, .recording, .httpRecording, .devtoolsMessage,
  ]

  /// The target called `name`, if any.
  public static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }
}

/// A property a target checks did not hold: a finding, reported as a crash so that libFuzzer keeps
/// the input.
func fuzzFailure(_ message: String, input: [UInt8]) -> Never {
  fatalError("\(message)\ninput: \(input.prefix(256).map { String($0, radix: 16) }.joined(separator: " "))")
}
