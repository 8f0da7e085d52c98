import ArgumentParser
import LuaFeatures

/// `--data-limit`: what a feature's data may take, shared by the commands that keep it on disk.
///
/// ```sh
/// lunar run examples/todos --data-limit 4
/// lunar host plugins --data-limit 0      # no limit
/// ```
struct DataLimitOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "Megabytes each feature's (each plugin's) storage document and shared files may take together (0: no limit).",
    valueName: "MB"))
  var dataLimit: Int = LuaFeatureData.defaultLimit >> 20

  func validate() throws {
    guard dataLimit >= 0, dataLimit <= 1 << 30 else {
      throw ValidationError("--data-limit must be from 0 to \(1 << 30) megabytes, got \(dataLimit)")
    }
  }

  /// The limit in bytes; `nil` for none.
  var bytes: Int? { dataLimit == 0 ? nil : dataLimit << 20 }
}
