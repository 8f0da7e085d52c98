import Foundation

/// How far this process's resident memory rose at its highest while a test ran: the kernel's
/// high-water mark (`VmHWM`), reset when the measure starts. Memory freed before the test looks
/// (an answer's body dropped once refused) still counts.
struct PeakMemory {
  private let start: Int

  init() {
    // NB: writing 5 to clear_refs resets the high-water mark to the current resident size.
    let file = open("/proc/self/clear_refs", O_WRONLY)
    precondition(file >= 0 && write(file, "5", 1) == 1, "the kernel's high-water mark cannot be reset here")
    close(file)
    start = Self.field("VmRSS")
  }

  /// The peak's height above the resident size at the start, in bytes.
  func growth() -> Int { Self.field("VmHWM") - start }

  private static func field(_ name: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
      let kilobytes = Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).dropLast(3))
    else { return 0 }
    return kilobytes << 10
  }
}
