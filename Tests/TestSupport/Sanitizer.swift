import Foundation

/// Whether the tests run under a sanitizer (`scripts/sanitize` sets `LUNAR_SANITIZER`). Memory
/// figures then hold the sanitizer's own bookkeeping (AddressSanitizer keeps freed memory in
/// quarantine and serves its own allocator's statistics), so a test that bounds memory checks
/// everything else and leaves the figure alone.
public enum Sanitizer {
  public static var isOn: Bool { ProcessInfo.processInfo.environment["LUNAR_SANITIZER"] != nil }
}
