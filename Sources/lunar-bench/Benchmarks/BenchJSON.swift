import Foundation

/// One line of JSON for a benchmark's `--json` output: keys sorted, numbers as numbers.
enum BenchJSON {
  /// `object` as one line of JSON; a figure that JSON cannot hold (NaN, an infinity: a run too short
  /// to measure) is written as `null`.
  static func encode(_ object: [String: Any]) -> String {
    let cleaned = object.mapValues { value -> Any in
      if let number = value as? Double, !number.isFinite { return NSNull() }
      return value
    }
    guard let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys]) else {
      return "{\"error\":\"the figures could not be written as JSON\"}"
    }
    return String(decoding: data, as: UTF8.self)
  }
}
