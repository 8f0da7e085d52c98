import Foundation
import LuaFeatures

extension LuaFeatureData {
  /// Warns when `<root>/<name>/`, where Lunar kept a plugin's data by its declared name, still
  /// holds data and the plugin's own folder has none yet.
  static func noteEarlierPluginLayout(of name: String, in root: URL, now data: LuaFeatureData) {
    // NB: a name ending like a data folder (`dogs-0123456789abcdef`) may be another plugin's
    //     folder of this layout, not an earlier one's: no advice to move it.
    guard name.wholeMatch(of: /.*-[0-9a-f]{16}/) == nil else { return }
    let earlier = root.appendingPathComponent(name, isDirectory: true)
    let manager = FileManager.default
    guard manager.fileExists(atPath: earlier.appendingPathComponent("storage.json").path)
      || manager.fileExists(atPath: earlier.appendingPathComponent("shared").path)
    else { return }
    // NB: the earlier folder is named, not its files: the plugin's whole folder was its data.
    data.noteEarlierData([URL(fileURLWithPath: earlier.path)], kind: "plugin", name: name, reason: "any folder may declare a name")
  }
}
