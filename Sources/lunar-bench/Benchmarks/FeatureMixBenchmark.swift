import ArgumentParser
import Composable
import Foundation
import LuaBridge
import LuaFeatures
import LunarHostSupport

/// `lunar-bench feature PATH`: a feature's own actions, sent in a loop through its store.
@MainActor
struct FeatureMixBenchmark {
  let path: String
  let actionsFile: String?
  let iterations: Int
  let repetitions: Int

  struct Result {
    var feature: String
    var actions: Int
    var nanoseconds: Double
    var errors: Int
    var text: String {
      "\(feature): \(formatted(nanoseconds)) ns/action over a mix of \(actions) action\(actions == 1 ? "" : "s")"
        + (errors > 0 ? " (\(errors) errors: check the mix with lunar run)" : "")
    }
    var json: String {
      BenchJSON.encode(["benchmark": "feature", "feature": feature, "mix": actions, "ns": nanoseconds, "errors": errors])
    }
  }

  func run() throws -> Result {
    let location = try FeatureLocation(resolving: path)
    let file = actionsFile ?? location.root.appendingPathComponent("bench.txt").path
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      throw ValidationError("no action mix at \(file): write one action per line (as typed in lunar run), or pass --actions")
    }
    let host = try LuaFeatureHost(dependencies: HostDependencies.dependencies(mode: .offline, root: location.root))
    // NB: a benchmark must never write over the user's shared files (and measures no disk).
    host.shared.reset(fileStorage: .inMemory())
    var errors = 0
    host.onError = { _ in errors += 1 }
    let feature = try host.load(location)
    let parser = ActionParser(vm: host.vm)
    let mix = try text.split(separator: "\n").map(String.init)
      .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("--") }
      .map { line in
        do { return try parser.parse(line) } catch { throw ValidationError("\(file): \(line): \(error)") }
      }
    guard !mix.isEmpty else { throw ValidationError("\(file) holds no actions") }
    let store = Store(initialState: feature.initialState) { feature.reducer() }
    let nanoseconds = bestNanosecondsPerOperation(operations: iterations, repetitions: repetitions) {
      for index in 0..<iterations {
        let task = store.send(mix[index % mix.count])
        task.cancel()
      }
    }
    return Result(feature: feature.name, actions: mix.count, nanoseconds: nanoseconds, errors: errors)
  }
}
