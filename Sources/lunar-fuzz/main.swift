import CLunarFuzz
import Foundation
import LunarFuzzing

// Runs one fuzz target under libFuzzer (built by scripts/fuzz), or, given files, feeds each to the
// target once: the way to replay what a run found.
//
//   LUNAR_FUZZ_TARGET=json .build-fuzz/release/lunar-fuzz corpus/ Tests/Fuzz/seeds/json -max_total_time=60
//   LUNAR_FUZZ_TARGET=json lunar-fuzz --replay crash-1234

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("lunar-fuzz: \(message)\n".utf8))
  exit(2)
}

let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
guard let name = ProcessInfo.processInfo.environment["LUNAR_FUZZ_TARGET"] else {
  fail("set LUNAR_FUZZ_TARGET to one of: \(names)")
}
guard let target = FuzzTarget.named(name) else {
  fail("no fuzz target '\(name)'; the targets are: \(names)")
}
// NB: libFuzzer's callback is a C function pointer, which captures nothing: the target travels
//     in a global.
nonisolated(unsafe) var selected = target

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "--replay" {
  for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    MainActor.assumeIsolated { selected.run(Array(data)) }
    print("\(path): ok")
  }
  exit(0)
}
guard lunar_fuzz_has_driver() != 0 else {
  fail("this binary was built without libFuzzer; build and run it with scripts/fuzz (or use --replay FILE…)")
}
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(lunar_fuzz_run(&argc, &argv) { data, size in
  let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
  MainActor.assumeIsolated { selected.run(input) }
  return 0
})
