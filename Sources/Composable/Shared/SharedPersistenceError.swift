import Foundation

/// Why a persisted ``Shared`` value could not be loaded or saved.
///
/// ```swift
/// let settings = Shared(wrappedValue: Settings(), .fileStorage(url))
/// if let error = settings.loadError { print(error) }
/// // /home/me/.local/share/app/settings.json cannot be read (Permission denied); it is left as it
/// // is, and changes to this value are not saved until it can be read
/// ```
///
/// Reported as an issue when it happens, and kept: ``Shared/loadError`` and ``Shared/saveError``.
/// ``Shared/withLockIfSaved(_:)`` throws it.
public struct SharedPersistenceError: Error, Sendable, CustomStringConvertible {
  /// What failed.
  public enum Kind: Sendable, Hashable {
    /// The stored value exists but cannot be read (no permission, a folder in its place, an I/O
    /// error, a folder claimed by another process, a corrupt file that could not be renamed
    /// aside). The value started as its default, and it is never saved: saving would overwrite
    /// what could not be read.
    case unreadable
    /// A save was refused because loading had failed (see ``unreadable``).
    case notLoaded
    /// The value cannot be encoded (a NaN in JSON, text that is not UTF-8, nesting too deep).
    case unencodable
    /// Writing failed (no space left, no permission).
    case unwritable
  }

  /// What failed.
  public let kind: Kind
  /// The file, for file-backed values.
  public let url: URL?
  /// The underlying error (for ``Kind/notLoaded``, the load's error).
  public let cause: any Error

  /// An error of `kind` for the file at `url`.
  public init(_ kind: Kind, url: URL?, cause: any Error) {
    self.kind = kind
    self.url = url
    self.cause = cause
  }

  public var description: String {
    let what = url?.path ?? "the stored value"
    switch kind {
    case .unreadable:
      return "\(what) cannot be read (\(cause)); it is left as it is, and changes to this value are not saved until it can be read"
    case .notLoaded:
      let reason = (cause as? SharedPersistenceError).map { "\($0.cause)" } ?? "\(cause)"
      return "not saved: \(what) could not be read when the value was loaded (\(reason)), and saving would overwrite it"
    case .unencodable:
      return "not saved to \(what): the value cannot be encoded (\(cause))"
    case .unwritable:
      return "could not save \(what): \(cause)"
    }
  }
}
