/// Where an effect was created; used in failure messages ("An effect created at Counter.swift:42 …").
public struct EffectOrigin: Sendable, CustomStringConvertible {
  public let fileID: StaticString
  public let filePath: StaticString
  public let line: UInt
  public let column: UInt

  public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public var description: String { "\(self.fileID):\(self.line)" }
}
