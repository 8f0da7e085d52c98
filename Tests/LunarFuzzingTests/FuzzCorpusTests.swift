import Foundation
import LunarFuzzing
import Testing

/// Every input kept for the fuzz targets — the seeds `scripts/fuzz` starts from and every input a
/// run found that once crashed or broke a property — read again by its target: each must be
/// accepted or refused, never trap.
@MainActor
@Suite struct FuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

  static func inputs(of target: String) -> [URL] {
    let folder = corpus.appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test(arguments: FuzzTarget.all.map(\.name))
  func everyKeptInputIsReadWithoutATrap(target name: String) throws {
    let target = try #require(FuzzTarget.named(name))
    let inputs = Self.inputs(of: name)
    #expect(!inputs.isEmpty, "Tests/LunarFuzzingTests/Corpus/\(name) holds no seed")
    for input in inputs {
      target.run(Array(try Data(contentsOf: input)))
    }
  }

  @Test func everyCorpusFolderNamesATarget() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
    #expect(folders == FuzzTarget.all.map(\.name).sorted())
  }
}
