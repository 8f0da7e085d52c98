import Foundation

/// What a watched file looks like now: its size, modification time and a hash of its content, or
/// `nil` when it is missing. Two fingerprints with the same size and hash name the same text.
struct FileFingerprint: Equatable, Sendable {
  var size: Int
  var modified: Date?
  var hash: UInt64

  /// The fingerprint of the file at `path`, or `nil` when it cannot be read.
  init?(path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    self.size = data.count
    self.modified = attributes?[.modificationDate] as? Date
    self.hash = FNV1a.hash(data)
  }

  /// Whether the text differs (a bare `touch` changes the time, not the text).
  func sameText(as other: FileFingerprint?) -> Bool {
    guard let other else { return false }
    return size == other.size && hash == other.hash
  }
}

extension Optional where Wrapped == FileFingerprint {
  /// Whether two fingerprints (either possibly missing) name the same text.
  func sameText(as other: FileFingerprint?) -> Bool {
    switch (self, other) {
    case (nil, nil): return true
    case let (mine?, theirs): return mine.sameText(as: theirs)
    case (nil, _?): return false
    }
  }
}
