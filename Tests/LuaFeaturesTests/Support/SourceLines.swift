/// The 1-based line of the first line of `source` containing `needle`, so tests can name the line
/// an error must point at without counting by hand.
func line(of needle: String, in source: String) -> Int? {
  for (index, text) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
  where text.contains(needle) {
    return index + 1
  }
  return nil
}

import LuaBridge

/// Where two values first differ (`record.nested[1]: {} (array) vs {} (table)`), for readable
/// failure messages.
func firstDifference(_ lhs: LuaValue, _ rhs: LuaValue, at path: String = "state") -> String? {
  switch (lhs, rhs) {
  case let (.table(a), .table(b)):
    for key in Set(a.keys).union(b.keys).sorted() {
      if let found = firstDifference(a[key] ?? .nil, b[key] ?? .nil, at: "\(path).\(key)") { return found }
    }
    return nil
  case let (.array(a), .array(b)):
    for index in 0..<max(a.count, b.count) {
      let left = index < a.count ? a[index] : .nil
      let right = index < b.count ? b[index] : .nil
      if let found = firstDifference(left, right, at: "\(path)[\(index + 1)]") { return found }
    }
    return nil
  default:
    return lhs == rhs ? nil : "\(path): \(lhs) (\(lhs.typeName)) vs \(rhs) (\(rhs.typeName))"
  }
}
