import Composable
import Dependencies
import Foundation
import LuaBridge

/// Where a `lunar.shared` value is kept: `"memory"` (the host's ``SharedRegistry``) or `"file"`
/// (a JSON file in the user's data folder).
public enum LuaSharedStorage: String, Sendable {
  /// In memory, for as long as the registry lives.
  case memory
  /// A JSON file, `<folder>/<key>.json` (see ``LuaSharedValues/folder``).
  case file
}

/// One field of a feature's state bound to a shared key by `shared = { field = lunar.shared(…) }`
/// (or to one element of a shared array by `lunar.sharedElement(…)`), in the feature itself or in
/// a child of its body, at `path`.
struct LuaSharedField: Sendable {
  let field: LuaString
  let key: String
  /// `nil` for an element reference that names a key without declaring it.
  let storage: LuaSharedStorage?
  let defaultValue: LuaValue
  /// Where the table holding the field is, from the root of the state.
  let path: [LuaSharedStep]
  /// Whether the field is the element of the shared array `key` whose `id` is the field's `id`.
  let element: Bool
  /// The feature that declares it (the root, or a child of its body).
  let declarer: String

  /// Reads the plain declarations the prelude leaves in a feature's `sharedFields`.
  static func parse(_ value: LuaValue, feature: String) throws(LuaError) -> [LuaSharedField] {
    guard case let .array(entries) = value else { return [] }
    var fields: [LuaSharedField] = []
    for entry in entries {
      let element = entry[LuaString("element")].boolValue ?? false
      let storage = entry[LuaString("storage")].stringValue.flatMap(LuaSharedStorage.init(rawValue:))
      guard let field = entry[LuaString("field")].stringValue, let key = entry[LuaString("key")].stringValue,
        storage != nil || element, let path = LuaSharedStep.parse(entry[LuaString("path")])
      else {
        throw LuaError(kind: .runtime, message: "feature \(feature): a malformed `shared` declaration")
      }
      // NB: checked here, where the key is used, and not only by `lunar.shared`: a key becomes a
      //     file name, and the script holds the tables the prelude made.
      guard isValidKey(key) else {
        throw LuaError(
          kind: .runtime,
          message: """
            feature \(feature): \(String(reflecting: key)) is not a lunar.shared key (letters, digits, `_`, `-` and `.`, \
            not first, at most \(maximumKeyLength) bytes)
            """)
      }
      fields.append(LuaSharedField(
        field: LuaString(field), key: key, storage: storage, defaultValue: entry[LuaString("default")], path: path,
        element: element, declarer: entry[LuaString("feature")].stringValue ?? feature))
    }
    // NB: the root's fields first, shallower before deeper: a test store's initial state seeds a
    //     collection before the elements that refer to it are read from it.
    return fields.sorted { ($0.path.count, $0.field.description) < ($1.path.count, $1.field.description) }
  }

  /// The longest key: its file's name, kept aside as corrupt or written as a temporary file,
  /// stays within the file system's 255 bytes.
  static let maximumKeyLength = 100

  /// Whether `key` can name a shared value, and so a file: ASCII letters, digits, `_`, `-` and
  /// `.`, not first (no `..`, no hidden file), at most ``maximumKeyLength`` bytes.
  static func isValidKey(_ key: String) -> Bool {
    let bytes = key.utf8
    guard let first = bytes.first, first != UInt8(ascii: "."), bytes.count <= maximumKeyLength else { return false }
    return bytes.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
        true
      default: false
      }
    }
  }
}

/// The shared values of a host's Lua features: one `Shared<LuaValue>` per `lunar.shared` key, seen
/// by every feature (every store) of the host that declares the key.
///
/// ```swift
/// let host = try LuaFeatureHost()
/// host.shared.reset(fileStorage: .inMemory())     // e.g. in a test: never touch the disk
/// ```
///
/// The registry and file storage come from the `sharedRegistry` and `defaultFileStorage`
/// dependencies when the host is created (fresh and in memory under a test).
///
/// ## Files
///
/// A `"file"` value is `<folder>/<key>.json`, JSON written by ``LuaJSONEncoder`` (keys as bytes,
/// integers and floats kept apart). Nothing saved in it is ever lost silently:
///
/// - **One host per folder.** The first feature declaring a `"file"` value claims ``folder`` for
///   this process (``FileStorage/claim``, an advisory lock on `<folder>/.lock`); a second host on
///   the same folder fails to load that feature, naming the folder and the other process.
/// - **A file that cannot be read** (no permission, a folder in its place) is left alone: the
///   value starts as the default, the problem is reported, and every action that changes the
///   value fails, leaving state and file as they were.
/// - **A file that cannot be used** (not JSON, a key twice, nested deeper than the VM's data
///   limit, a value of another kind than the default) is renamed to `<key>.json.corrupt-<time>`,
///   reported as a warning, and the default is used.
/// - **A value that cannot be saved** (NaN or an infinity, a string that is not UTF-8, nested too
///   deep) fails the action that wrote it: its state is rolled back, and later actions still save.
@MainActor
public final class LuaSharedValues {
  /// Where `"memory"` and `"file"` values live (their `Shared` boxes).
  public private(set) var registry: SharedRegistry
  /// Where `"file"` values are read and written.
  public private(set) var fileStorage: FileStorage
  /// The folder of `"file"` values: `$XDG_DATA_HOME/lunar/shared` (else
  /// `~/.local/share/lunar/shared`); each key is `<key>.json` there. Every file is reached through
  /// a ``LuaDataFolder`` over it: a symlink leading out of it is refused.
  public var folder: URL
  /// The quota the `"file"` values count against (with the owner's `deps.storage` document, when
  /// they share it); `nil` for none. A change that would take the files over it fails the action
  /// that made it, and the file keeps its previous value.
  public var quota: LuaDataQuota?
  /// Bumped by ``reset(registry:fileStorage:)``: instances re-resolve their values.
  private(set) var generation = 0
  private var declarations: [String: (field: LuaSharedField, feature: String)] = [:]
  private var slots: [String: LuaSharedSlot] = [:]
  /// The VM's data depth: what a file may nest, so that what is loaded can enter the VM.
  private let dataDepth: Int

  init(dataDepth: Int) {
    self.dataDepth = dataDepth
    @Dependency(\.sharedRegistry) var registry
    @Dependency(\.defaultFileStorage) var fileStorage
    self.registry = registry
    self.fileStorage = fileStorage
    self.folder = AppStorageKey<LuaValue>.defaultURL.deletingLastPathComponent().appendingPathComponent("shared")
  }

  /// Forgets every value: the next use loads them afresh from `fileStorage` (or the defaults).
  /// Declarations are kept. `lunar test` does this before each test, with an in-memory storage.
  public func reset(registry: SharedRegistry = SharedRegistry(), fileStorage: FileStorage) {
    self.registry = registry
    self.fileStorage = fileStorage
    slots = [:]
    generation += 1
  }

  /// The current value of a declared key, `nil` when no feature declared it.
  public func value(forKey key: String) -> LuaValue? {
    guard let declaration = declarations[key] else { return nil }
    return slot(for: declaration.field)?.value
  }

  /// Records the declarations of `feature`; a key another feature declared with another storage or
  /// a default of another shape is an error, and so is a `"file"` value whose folder another
  /// process has claimed.
  func declare(_ fields: [LuaSharedField], feature: String) throws(LuaError) {
    if let field = fields.first(where: { $0.storage == .file }) {
      do {
        try confinedStorage.claim(folder)
      } catch let error as FolderInUseError {
        let holder = error.processID.map { "another lunar host (pid \($0))" } ?? "another lunar host"
        throw LuaError(
          kind: .runtime,
          message: """
            feature \(feature): lunar.shared("\(field.key)") is kept in \(folder.path), which \(holder) is \
            using; two hosts would overwrite each other's changes. Stop the other host, or run this one with \
            its own data folder (XDG_DATA_HOME).
            """)
      } catch {
        // NB: any other failure (a folder that cannot be made) surfaces when the value is loaded:
        //     it is reported then, and the value is not saved.
      }
    }
    for field in fields where field.storage != nil {
      // NB: a feature may change its own declaration (a hot reload): the stored value is kept.
      if let (earlier, declarer) = declarations[field.key], declarer != field.declarer {
        if earlier.storage != field.storage {
          throw LuaError(
            kind: .runtime,
            message: """
              feature \(field.declarer): lunar.shared("\(field.key)") is declared with storage "\(field.storage!.rawValue)", \
              but \(declarer) declared it with storage "\(earlier.storage!.rawValue)"
              """)
        }
        let (shape, earlierShape) = (Self.shape(of: field.defaultValue), Self.shape(of: earlier.defaultValue))
        if shape != earlierShape {
          throw LuaError(
            kind: .runtime,
            message: """
              feature \(field.declarer): lunar.shared("\(field.key)") has a default of shape \(shape), \
              but \(declarer) declared it with a default of shape \(earlierShape)
              """)
        }
        continue
      }
      declarations[field.key] = (field, field.declarer)
    }
  }

  /// The value behind a declaration, made (and loaded) on first use; `nil` for an element
  /// reference to a key no feature of the host declares.
  func slot(for field: LuaSharedField) -> LuaSharedSlot? {
    if let slot = slots[field.key] { return slot }
    guard let field = field.storage != nil ? field : declarations[field.key]?.field, let storage = field.storage else {
      return nil
    }
    let defaultValue = declarations[field.key]?.field.defaultValue ?? field.defaultValue
    let shared = withDependencies {
      $0.sharedRegistry = registry
      $0.defaultFileStorage = storage == .file ? confinedStorage : fileStorage
      // NB: Lua state is asserted as state (a plain field of LuaState), never as a Shared box.
      $0.sharedChangeTracker = nil
    } operation: {
      switch storage {
      case .memory: Shared(wrappedValue: defaultValue, InMemoryKey<LuaValue>.inMemory("lunar.shared:\(field.key)"))
      case .file:
        Shared(
          wrappedValue: defaultValue,
          LuaSharedFileKey(key: field.key, folder: folder, defaultValue: defaultValue, dataDepth: dataDepth)
        )
      }
    }
    let slot = LuaSharedSlot(shared, key: field.key, shape: LuaArrayShape(of: defaultValue))
    slots[field.key] = slot
    return slot
  }

  /// ``fileStorage``, confined to ``folder`` and counted against ``quota``.
  private var confinedStorage: FileStorage {
    LuaDataFolder(folder, storage: fileStorage, quota: quota).fileStorage
  }

  /// A value's shape: its type, and for a table its keys and their shapes (an array's elements
  /// are not compared: any number of anything).
  static func shape(of value: LuaValue) -> String {
    switch value {
    case .integer, .number: return "number"
    case .string: return "string"
    case .boolean: return "boolean"
    case .nil: return "nil"
    case .array: return "array"
    case let .table(fields):
      if fields.isEmpty { return "array" }
      let entries = fields.map { "\($0.key.description): \(shape(of: $0.value))" }.sorted()
      return "{ " + entries.joined(separator: ", ") + " }"
    }
  }
}

