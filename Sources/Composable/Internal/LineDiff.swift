/// A line-by-line diff of two dumps: unchanged lines prefixed with `unchanged`, removed ones with
/// `removed`, added ones with `added`.
///
/// Used where the two sides of a diff must be dumped separately — shared values read as they were
/// on one side and as they are on the other — so custom-dump's `diff` cannot compare them itself.
package func lineDiff(
  _ old: String, _ new: String, removed: String, added: String, unchanged: String = " "
) -> String {
  let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
  let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
  var removedLines = Set<Int>()
  var insertedLines = Set<Int>()
  for change in newLines.difference(from: oldLines) {
    switch change {
    case let .remove(offset, _, _): removedLines.insert(offset)
    case let .insert(offset, _, _): insertedLines.insert(offset)
    }
  }
  var lines: [String] = []
  var (i, j) = (0, 0)
  while i < oldLines.count || j < newLines.count {
    if i < oldLines.count, removedLines.contains(i) {
      lines.append("\(removed)\(oldLines[i])")
      i += 1
    } else if j < newLines.count, insertedLines.contains(j) {
      lines.append("\(added)\(newLines[j])")
      j += 1
    } else {
      lines.append("\(unchanged)\(newLines[j])")
      (i, j) = (i + 1, j + 1)
    }
  }
  return lines.joined(separator: "\n")
}
