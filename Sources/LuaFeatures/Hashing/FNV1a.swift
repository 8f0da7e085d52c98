/// 64-bit FNV-1a: fast and stable across runs and machines, for names and fingerprints that must
/// come out the same everywhere (recorded answers' file names, a file's text, a history's name).
/// Not a defence against someone choosing collisions.
package enum FNV1a {
  package static func hash<Bytes: Sequence>(_ bytes: Bytes, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64
  where Bytes.Element == UInt8 {
    var hash = seed
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }
}
