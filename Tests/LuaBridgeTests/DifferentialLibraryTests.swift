import Foundation
import LuaBridge
import Testing

/// The library functions Lunar rewrites to count their work return what stock Lua's do, and raise
/// the same errors: seeded random calls (``LibraryCases``) run in a sandbox and in stock `lua5.4`
/// on the same text, and every result and error message is compared.
///
/// A few thousand cases run with the suite; `LUNAR_DIFFERENTIAL_CASES=200000` runs a longer search
/// (and `LUNAR_DIFFERENTIAL_SEED` another seed).
@Suite struct DifferentialLibraryTests {
  /// Runs every case under `pcall` and prints one line per case: `true`/`false` and the values,
  /// strings quoted with %q, numbers with their subtype. The same text runs on both sides.
  static let runner = """
    local cases = ...
    local function show(v, depth)
      local t = type(v)
      if t == "string" then return (string.format("%q", v):gsub("\\n", "n"))
      elseif math.type(v) == "integer" then return "i" .. string.format("%d", v)
      elseif t == "number" then return "f" .. string.format("%.17g", v)
      elseif t == "table" and depth < 3 then
        local parts = {}
        for i = 1, rawlen(v) do parts[i] = show(v[i], depth + 1) end
        return "{" .. table.concat(parts, ",") .. "}"
      elseif t == "table" then return "table"
      else return tostring(v) end
    end
    local out = {}
    for i = 1, #cases do
      local f, problem = load(cases[i], "=case")
      if not f then out[i] = "load " .. problem else
        local r = table.pack(pcall(f))
        local parts = {}
        for j = 1, r.n do parts[j] = show(r[j], 0) end
        out[i] = table.concat(parts, " ")
      end
    end
    return table.concat(out, "\\n")
    """

  static func cases(count: Int, seed: UInt64) -> [String] {
    var generator = LibraryCases(seed: seed)
    return (0..<count).map { _ in generator.next() }
  }

  static func inSandbox(_ cases: [String]) throws -> [String] {
    let vm = try makeVM(instructions: nil)
    let sandbox = try vm.makeSandbox()
    let list = LuaValue.array(cases.map { .string(LuaString($0)) })
    let output = try vm.call(sandbox.load(runner, chunkName: "runner.lua"), list)
    guard case .string(let text)? = output.first else { throw DifferentialError(text: "runner returned \(output)") }
    return text.printableText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  static func inStock(_ cases: [String]) throws -> [String] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("lunar-differential-\(UUID().uuidString).lua")
    defer { try? FileManager.default.removeItem(at: file) }
    let literals = cases.map { "[==[\($0)]==]" }.joined(separator: ",\n")
    let source = "local cases = {\n\(literals)\n}\nio.write((load(\(LibraryCases(seed: 0).literal(runner)))(cases)))\n"
    try Data(source.utf8).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["lua5.4", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DifferentialError(text: "lua5.4 exited with \(process.terminationStatus): is it installed? (scripts/bootstrap installs it)")
    }
    return LuaString(bytes: Array(data)).printableText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  struct DifferentialError: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
  }

  @Test func randomLibraryCallsGiveStocksResultsAndErrors() throws {
    let environment = ProcessInfo.processInfo.environment
    let count = environment["LUNAR_DIFFERENTIAL_CASES"].flatMap(Int.init) ?? 3_000
    let seed = environment["LUNAR_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 1
    let cases = Self.cases(count: count, seed: seed)
    let ours = try Self.inSandbox(cases)
    let stock = try Self.inStock(cases)
    #expect(ours.count == cases.count)
    #expect(stock.count == cases.count)
    var differences: [String] = []
    for (index, (mine, theirs)) in zip(ours, stock).enumerated() where mine != theirs {
      differences.append("\(cases[index])\n  sandbox: \(mine)\n  stock:   \(theirs)")
    }
    #expect(differences.isEmpty, "\(differences.count) of \(cases.count) cases differ (seed \(seed)):\n\(differences.prefix(20).joined(separator: "\n"))")
  }

  @Test func theCasesCoverEveryRewrittenFunction() {
    let text = Self.cases(count: 3_000, seed: 1).joined(separator: "\n")
    for name in ["string.find", "string.match", "string.gmatch", "string.gsub", "table.insert", "table.remove", "table.concat",
                 "table.sort", "table.move", "table.unpack", "string.format", "string.rep", "string.byte", "string.char"] {
      #expect(text.contains(name + "("), "\(name)")
    }
  }
}
