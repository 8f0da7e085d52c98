import ArgumentParser
import Foundation
import LuaFeatures

/// What answers `deps.http` (`--deps`): recorded answers next to the feature, or the network
/// (recording its answers, or not).
public enum DependencyMode: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// `deps.http` answers from `fixtures/http/` in the feature's folder; no network.
  case offline
  /// Real requests, each answer written to `fixtures/http/`.
  case record
  /// Real requests; nothing recorded.
  case live

  /// The transport behind `deps.http` for a feature in `root`.
  public func httpTransport(root: URL) -> HTTPTransport {
    let fixtures = root.appendingPathComponent("fixtures/http")
    switch self {
    case .offline: return .fixtures(in: fixtures, within: root)
    case .record: return .recording(to: fixtures)
    case .live: return .live
    }
  }
}
