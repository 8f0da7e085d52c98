import Foundation
import LuaBridge

extension LuaFeatureHost {
  /// Runs a plugin's manifest, `plugin.lua`, in a fresh sandbox rooted at its folder, and returns
  /// what its `lunar.plugin { … }` holds, as data.
  ///
  /// ```swift
  /// let manifest = try host.loadPluginManifest(folder.appending(path: "plugin.lua"))
  /// manifest[LuaString("name")]   // "dogs"
  /// ```
  ///
  /// `lunar.plugin` only checks that it got a table of data: what the fields mean (a name, a
  /// version, the Lua API version, the entry module, the capabilities) is for the host that loads
  /// plugins to check.
  ///
  /// - Throws: ``LuaFeatureError`` of kind `.load` with `file:line`: a syntax error, an error
  ///   raised while running, or a script that does not return `lunar.plugin { … }`.
  public func loadPluginManifest(_ file: URL) throws(LuaFeatureError) -> LuaValue {
    let name = file.lastPathComponent
    do {
      let sandbox = try vm.makeSandbox(.init(root: file.deletingLastPathComponent(), randomSeed: randomSeed))
      let chunk = try sandbox.loadFile(name)
      let result = try vm.call(chunk, returning: LuaRef?.self)
      guard let result, try vm.call(prelude.isManifest, result, returning: Bool.self) else {
        let got = try result.map { ref throws(LuaError) in ref.type.rawValue } ?? "nothing"
        throw LuaFeatureError(
          kind: .load, feature: name,
          message: "\(name) must return lunar.plugin { name = …, version = …, api = … }, but returned \(got)",
          file: name, line: nil
        )
      }
      return try result.value()
    } catch let error as LuaError {
      throw LuaFeatureError(error, kind: .load, feature: name)
    } catch {
      throw error as! LuaFeatureError
    }
  }
}
