import Composable
import Foundation
import IssueReporting
import LuaFeatures

/// Where one plugin keeps its data: its folder (``PluginHost/dataFolder(for:name:in:)``), the
/// storage its files are read and written in, and the quota they count against.
struct PluginData {
  /// `<data>/lunar/plugins/<name>-<digits>`.
  let folder: URL
  /// The real file system, or memory when the host keeps data in memory.
  let fileStorage: FileStorage
  /// What its storage document and shared files may take together.
  let quota: LuaDataQuota

  /// Its `deps.storage` document.
  var storageFile: URL { folder.appendingPathComponent("storage.json") }
  /// The folder of its `lunar.shared` files.
  var sharedFolder: URL { folder.appendingPathComponent("shared", isDirectory: true) }

  /// `storage` over the plugin's document, for a host that offers it.
  var storage: LuaCapability {
    .storage(file: storageFile, fileStorage: fileStorage, quota: quota)
  }

  /// Warns when `<root>/<name>/`, where Lunar kept a plugin's data by its declared name, still
  /// holds data and the plugin's own folder has none yet.
  ///
  /// NB: never moved automatically: any folder could have declared that name, and so written it.
  static func noteEarlierLayout(of name: String, in root: URL, now folder: URL) {
    // NB: a name ending like a data folder (`dogs-0123456789abcdef`) may be another plugin's
    //     folder of this layout, not an earlier one's: no advice to move it.
    guard name.wholeMatch(of: /.*-[0-9a-f]{16}/) == nil else { return }
    let earlier = root.appendingPathComponent(name, isDirectory: true)
    let manager = FileManager.default
    guard !manager.fileExists(atPath: folder.path),
      manager.fileExists(atPath: earlier.appendingPathComponent("storage.json").path)
        || manager.fileExists(atPath: earlier.appendingPathComponent("shared").path)
    else { return }
    reportIssue(
      """
      plugin \(name): \(earlier.path) holds data an earlier Lunar kept under the name \(name); a plugin's data \
      now lives in a folder tied to the plugin's own folder, \(folder.path), and starts empty there. If that data \
      is this plugin's, move the files into \(folder.path) (Lunar does not, since any folder may declare a name).
      """,
      severity: .warning)
  }
}
