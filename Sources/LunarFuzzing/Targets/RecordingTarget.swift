import LunarHostSupport

extension FuzzTarget {
  /// A session recording (`lunar replay FILE`, a recording imported into the devtools).
  static let recording = FuzzTarget(name: "recording", summary: "a session recording (JSON lines)") { input in
    guard let recording = try? Recording(text: String(decoding: input, as: UTF8.self), name: "fuzz.jsonl") else { return }
    // NB: What replay derives from a recording it read must not trap either.
    _ = recording.inputs
    _ = recording.effectActions
  }
}
