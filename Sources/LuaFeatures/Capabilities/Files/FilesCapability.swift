import Foundation
import LuaBridge

extension LuaCapability {
  /// `deps.files`: read-only access to the files in a feature's own folder (bundled data),
  /// confined like `require`.
  ///
  /// ```lua
  /// local breeds = lunar.json.decode(deps.files.read("data/breeds.json"))
  /// for _, name in ipairs(deps.files.list("data/images")) do … end
  /// if deps.files.exists("facts.json") then … end
  /// ```
  ///
  /// - `read(path)` returns the file's bytes as a string;
  /// - `list([folder])` returns the sorted names in a folder (the feature's own by default), folders
  ///   with a trailing `/`;
  /// - `exists(path)` says whether a file or folder is there.
  ///
  /// Paths are relative, with `/` between folders. Absolute paths, `..` and symlinks that lead out
  /// of the folder are refused; a file over ``FilesAccess/maximumFileSize`` is not read. All three
  /// are synchronous: a feature's own files are data like its code, so a reducer may read them.
  public static func files(in root: URL) -> LuaCapability {
    let access = FilesAccess(root: root)
    return LuaCapability(name: "files", functions: [
      "files.read": .sync { arguments in
        try LuaDependencies.checkCount(arguments, 1, "files.read")
        return .string(LuaString(bytes: try access.read(path(arguments, "files.read"))))
      },
      "files.list": .sync { arguments in
        try LuaDependencies.checkCount(arguments, 1, "files.list")
        let folder = arguments.first.flatMap { $0.isNil ? nil : $0 }
        return .array(try access.list(folder == nil ? "" : path(arguments, "files.list")).map { .string(LuaString($0)) })
      },
      "files.exists": .sync { arguments in
        try LuaDependencies.checkCount(arguments, 1, "files.exists")
        return .boolean(try access.exists(path(arguments, "files.exists")))
      },
    ])
  }

  private static func path(_ arguments: [LuaValue], _ name: String) throws -> String {
    guard let text = arguments.first?.stringValue else {
      throw LuaDependencyError(name: name, message: "expects a path (a string), got \((arguments.first ?? .nil).luaType)")
    }
    return text
  }
}

/// The confinement behind `deps.files`: paths resolve inside one folder or not at all
/// (``ConfinedFolder``).
struct FilesAccess: Sendable {
  /// The largest file `read` returns: 64 MiB.
  static let maximumFileSize = 64 << 20

  private let folder: ConfinedFolder
  let root: URL

  init(root: URL) {
    self.folder = ConfinedFolder(root: root, name: "the feature's folder")
    self.root = folder.resolvedRoot
  }

  typealias Refusal = ConfinedFolder.Refusal

  /// `path` inside the folder, symlinks resolved, or the reason it is refused.
  func resolve(_ path: String) throws(Refusal) -> URL {
    try folder.resolve(path)
  }

  func read(_ path: String) throws(Refusal) -> [UInt8] {
    let file = try resolve(path)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
      throw Refusal(description: "no file '\(path)' in \(root.path)")
    }
    if isFolder.boolValue { throw Refusal(description: "'\(path)' is a folder (use files.list)") }
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    if size > Self.maximumFileSize {
      throw Refusal(description: "'\(path)' has \(size) bytes; files over \(Self.maximumFileSize >> 20) MiB are not read")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw Refusal(description: "'\(path)' cannot be read (permissions?)")
    }
    return Array(data)
  }

  func list(_ path: String) throws(Refusal) -> [String] {
    let folder = try resolve(path)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      throw Refusal(description: "no folder '\(path)' in \(root.path)")
    }
    return names.sorted().map { name in
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
      return isFolder.boolValue ? name + "/" : name
    }
  }

  func exists(_ path: String) throws(Refusal) -> Bool {
    FileManager.default.fileExists(atPath: try resolve(path).path)
  }
}
