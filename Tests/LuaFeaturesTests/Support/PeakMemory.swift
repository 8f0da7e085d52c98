import Foundation

/// How far this process's resident memory rose at its highest while a test ran. On Linux, the
/// kernel's high-water mark (`VmHWM`), reset when the measure starts, so memory freed before the
/// test looks (an answer's body dropped once refused) still counts. Elsewhere, the rise of the
/// process's lifetime peak (`ru_maxrss`), which misses a peak below an earlier one.
struct PeakMemory {
  private let start: Int

  init() {
    #if os(Linux)
      // NB: writing 5 to clear_refs resets the high-water mark to the current resident size.
      let file = open("/proc/self/clear_refs", O_WRONLY)
      precondition(file >= 0 && write(file, "5", 1) == 1, "the kernel's high-water mark cannot be reset here")
      close(file)
      start = Self.status("VmRSS")
    #else
      start = Self.lifetimePeak()
    #endif
  }

  /// The peak's height above the resident size at the start, in bytes.
  func growth() -> Int {
    #if os(Linux)
      Self.status("VmHWM") - start
    #else
      Self.lifetimePeak() - start
    #endif
  }

  private static func status(_ name: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
      let kilobytes = Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).dropLast(3))
    else { return 0 }
    return kilobytes << 10
  }

  #if !os(Linux)
    // NB: macOS gives ru_maxrss in bytes.
    private static func lifetimePeak() -> Int {
      var usage = rusage()
      getrusage(RUSAGE_SELF, &usage)
      return usage.ru_maxrss
    }
  #endif
}
