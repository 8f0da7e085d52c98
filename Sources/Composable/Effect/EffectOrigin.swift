/// Where an effect was created; used in failure messages ("An effect created at Counter.swift:42 …").
///
/// Effects written in Swift get their origin from `#fileID`/`#line`; hosts that describe effects in
/// another language (Lunar's Lua features) give a ``label`` such as `"counter.lua:12"`, which then
/// names the effect in messages.
public struct EffectOrigin: Sendable, CustomStringConvertible {
  /// The file, as `#fileID` names it (`Module/File.swift`).
  public let fileID: StaticString
  /// The file's full path, as `#filePath` names it.
  public let filePath: StaticString
  /// The line.
  public let line: UInt
  /// The column.
  public let column: UInt
  /// A name for the place, when it is not Swift source (`"counter.lua:12"`).
  public let label: String?

  /// The place in Swift source at `fileID`, `line` and `column`.
  public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.label = nil
  }

  /// An origin named by `label`; issues about it still point at the Swift line that made it.
  public init(
    label: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
    self.label = label
  }

  /// The line of the test step whose action is being reduced (a `TestStore`'s `send`, or the step
  /// in progress when an effect's action arrives), or `nil` outside a test store.
  ///
  /// For hosts that run features written in another language: an error of such a feature has no
  /// Swift line of its own, and is best reported where the test sent the action.
  ///
  /// ```swift
  /// let at = EffectOrigin.testStep
  /// reportIssue(message, fileID: at?.fileID ?? #fileID, filePath: at?.filePath ?? #filePath,
  ///             line: at?.line ?? #line, column: at?.column ?? #column)
  /// ```
  @TaskLocal public static var testStep: EffectOrigin?

  /// The label, or `File.swift:42`.
  public var description: String { label ?? "\(self.fileID):\(self.line)" }
}
