// What the test targets share: helpers for reading a child process's output.
import Foundation

extension FileHandle {
  /// The next bytes available (empty at the end), read again when a signal interrupts the read:
  /// Foundation's `availableData` traps on `EINTR`, which a child process's signals can cause.
  public func nextChunk() -> Data {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(fileDescriptor, $0.baseAddress, $0.count) }
      if count >= 0 { return Data(buffer[..<count]) }
      if errno != EINTR { return Data() }
    }
  }
}

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#else
import Darwin
private let systemRead = Darwin.read
#endif
