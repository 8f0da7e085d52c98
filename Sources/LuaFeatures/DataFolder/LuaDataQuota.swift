import Foundation

/// How many bytes of documents one owner (a plugin) may keep: its `deps.storage` document and its
/// `lunar.shared` files together. Every save is checked before it is written; a save that would
/// take the total over the limit is refused and the file keeps what it had.
///
/// ```swift
/// let quota = LuaDataQuota(limit: 16 << 20, owner: "plugin notes")
/// dependencies.offer(.storage(file: file, quota: quota))
/// host.shared.quota = quota
/// ```
///
/// The total counts each document at the size it was last read or written by this process. A save
/// that does not make the total larger is always allowed, so an owner over its limit (a limit
/// lowered, a document written before there was one) can still shrink or delete what it keeps.
public final class LuaDataQuota: @unchecked Sendable {
  /// Who the documents belong to, for messages: `plugin notes`.
  public let owner: String
  private let lock = NSLock()
  private var bytesLimit: Int?
  private var sizes: [String: Int] = [:]
  private var total = 0

  /// A quota of `limit` bytes (`nil`: no limit) for `owner`.
  public init(limit: Int?, owner: String) {
    self.bytesLimit = limit
    self.owner = owner
  }

  /// The most bytes the documents may take together; `nil` for no limit.
  public var limit: Int? {
    get { lock.withLock { bytesLimit } }
    set { lock.withLock { bytesLimit = newValue } }
  }

  /// The bytes the documents take now, as far as this process has read and written them.
  public var used: Int { lock.withLock { total } }

  /// Counts `file` at `bytes` (`nil`: it is gone), as read from disk.
  func record(_ bytes: Int?, for file: URL) {
    lock.withLock { set(bytes, file.path) }
  }

  /// Counts `file` at `bytes` if that keeps the total within the limit (or does not grow it);
  /// returns what it counted before, to put back with ``record(_:for:)`` if the write fails.
  func reserve(_ bytes: Int, for file: URL) throws(LuaDataQuotaError) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    let previous = sizes[file.path]
    let others = total - (previous ?? 0)
    if let bytesLimit, others + bytes > bytesLimit, bytes > (previous ?? 0) {
      throw LuaDataQuotaError(file: file, bytes: bytes, others: others, limit: bytesLimit, owner: owner)
    }
    set(bytes, file.path)
    return previous
  }

  private func set(_ bytes: Int?, _ path: String) {
    total += (bytes ?? 0) - (sizes[path] ?? 0)
    sizes[path] = bytes
  }
}

/// A save refused because it would take an owner's documents over its ``LuaDataQuota``.
public struct LuaDataQuotaError: Error, Sendable, CustomStringConvertible {
  /// The file that was to be written.
  public let file: URL
  /// The size it would have had.
  public let bytes: Int
  /// What the owner's other documents take.
  public let others: Int
  /// The quota.
  public let limit: Int
  /// Whose quota it is.
  public let owner: String

  /// `storage.json would take 40.0 MiB, over the 16.0 MiB plugin notes may keep (its other files take 12 bytes)`
  public var description: String {
    let rest = others == 0 ? "" : " (its other files take \(Self.size(others)))"
    return "\(file.lastPathComponent) would take \(Self.size(bytes)), over the \(Self.size(limit)) \(owner) may keep\(rest)"
  }

  /// `12 bytes`, `3.5 KiB`, `16.0 MiB`.
  static func size(_ bytes: Int) -> String {
    if bytes < 1024 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
    let (value, unit) = bytes < 1 << 20 ? (Double(bytes) / 1024, "KiB") : (Double(bytes) / Double(1 << 20), "MiB")
    let tenths = (value * 10).rounded(.down) / 10
    return "\(tenths) \(unit)"
  }
}
