import CustomDump

/// `value` as custom-dump prints it (`Feature.Action.child(.tapped)`), for the issues the core
/// reports. Lines after the first are indented by `spaces`, so that a value interpolated on an
/// indented line of a message stays aligned.
func issueDescription(_ value: Any, indent spaces: Int = 4) -> String {
  let padding = String(repeating: " ", count: spaces)
  return String(customDumping: value)
    .split(separator: "\n", omittingEmptySubsequences: false)
    .enumerated()
    .map { $0.offset == 0 ? String($0.element) : padding + $0.element }
    .joined(separator: "\n")
}
