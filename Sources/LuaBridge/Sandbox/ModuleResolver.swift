import CLua
import CLuaShim
import Foundation

/// Finds modules for one sandbox's `require`: host modules first, then `.lua` files inside the
/// sandbox's root folder. Remembers every file it read, for hot reload.
final class ModuleResolver {
  let root: URL?
  private(set) var loadedFiles: [URL] = []

  init(root: URL?) {
    self.root = root?.standardizedFileURL.resolvingSymlinksInPath()
  }

  func forgetFiles() { loadedFiles.removeAll() }

  func record(_ file: URL) { loadedFiles.append(file) }

  /// `require`'s `find(name, env)`: returns `chunk, origin`, or `nil, message`.
  func find(_ arguments: LuaArguments) throws -> LuaReturn {
    let name = try arguments.string(1)
    let environment = try arguments.table(2)
    let vm = arguments.vm
    if let problem = Self.problem(with: name) {
      return .values(LuaValue.nil, "module name '\(name)' is not allowed: \(problem)")
    }
    switch vm.hostModules[name] {
    case .source(let source, let chunkName):
      do {
        return .values(try vm.load(source, chunkName: chunkName, environment: environment), "host")
      } catch {
        return .values(LuaValue.nil, error.message)
      }
    case .loader(let id):
      let loader = LuaRef(vm: vm, id: try vm.retainedCopy(of: id), type: .function)
      return .values(loader, "host")
    case nil:
      break
    }
    guard let root else {
      return .values(LuaValue.nil, "module '\(name)' not found: no host module '\(name)', and this sandbox has no folder")
    }
    let relative = name.split(whereSeparator: { $0 == "." || $0 == "/" }).joined(separator: "/")
    var tried: [String] = []
    for candidate in [relative + ".lua", relative + "/init.lua"] {
      tried.append(candidate)
      guard let file = contained(candidate, in: root) else { continue }
      guard let data = FileManager.default.contents(atPath: file.path) else { continue }
      record(file)
      do {
        return .values(try vm.load(bytes: data, chunkName: candidate, environment: environment), file.path)
      } catch {
        return .values(LuaValue.nil, error.message)
      }
    }
    let list = tried.map { "no file '\($0)'" }.joined(separator: ", ")
    return .values(LuaValue.nil, "module '\(name)' not found: no host module '\(name)', \(list) in \(root.path)")
  }

  /// `candidate` resolved inside `root`, or nil if it does not exist or escapes it (symlinks too).
  func contained(_ candidate: String, in root: URL) -> URL? {
    let file = root.appendingPathComponent(candidate).standardizedFileURL.resolvingSymlinksInPath()
    guard file.path.hasPrefix(root.path + "/") else { return nil }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
    return file
  }

  /// Why `name` is refused, or nil. Names are dot- (or slash-) separated segments of letters,
  /// digits, `_` and `-`: no `..`, no absolute paths, no empty segments.
  static func problem(with name: String) -> String? {
    if name.isEmpty { return "it is empty" }
    if name.hasPrefix("/") || name.hasPrefix("\\") { return "absolute paths are not allowed" }
    if name.contains("..") { return "'..' is not allowed (modules resolve inside the feature's folder)" }
    let segments = name.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "/" })
    for segment in segments {
      if segment.isEmpty { return "it has an empty segment" }
      let valid = segment.unicodeScalars.allSatisfy { s in
        s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" || s == "-")
      }
      if !valid { return "use letters, digits, '_' and '-' separated by '.' (e.g. 'views.row')" }
    }
    return nil
  }
}

extension LuaVM {
  /// A fresh registry reference to the value of reference `id`.
  func retainedCopy(of id: Int32) throws(LuaError) -> Int32 {
    let L = state
    guard lua_checkstack(L, 1) != 0 else { throw LuaError(kind: .memory, message: "not enough stack space") }
    lua_rawgeti(L, lunar_registryindex(), lua_Integer(id))
    return try popReference()
  }
}
