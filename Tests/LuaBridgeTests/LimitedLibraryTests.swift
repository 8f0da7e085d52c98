import CLua
import LuaBridge
import Testing

/// The standard library functions a VM replaces with versions that count their work (CLuaShim's
/// limited.c, patterns.c, strfind.c and tables.c): the same results and errors as stock Lua 5.4,
/// and no way for a script to keep the host in C without running out of its limits.
@Suite struct LimitedLibraryTests {
  // MARK: - Same results as stock Lua

  @Test(arguments: [1, 2, 3] as [UInt64])
  func patternFunctionsMatchStockLua(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let count = ThreadSanitizer.isActive ? 300 : 3000
    var cases = (0..<count).map { _ in PatternCase.random(using: &generator, small: false) }
    cases += (0..<count).map { _ in PatternCase.random(using: &generator, small: true) }
    try expectSameOutput(PatternCase.driver, input: PatternCase.source(of: cases), label: "seed \(seed)")
  }

  @Test func handWrittenPatternCasesMatchStockLua() throws {
    var cases: [PatternCase] = []
    for (subject, pattern) in PatternCase.edges {
      for initial in [nil, "1", "2", "-1", "0", "100"] {
        for replacement in [#""x""#, #""%0""#, #""%1""#, #""%2""#, #""<%1|%2>""#, #""%""#, #""%%""#, "5"] {
          cases.append(PatternCase(subject: Array(subject.utf8), pattern: Array(pattern.utf8), initial: initial, replacement: replacement, limit: nil))
        }
      }
    }
    try expectSameOutput(PatternCase.driver, input: PatternCase.source(of: cases), label: "edges")
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func tableStringAndUTF8FunctionsMatchStockLua(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let count = ThreadSanitizer.isActive ? 300 : 3000
    let input = "\(generator.next() % 1_000_000 + 1) \(count)"
    try expectSameOutput(Self.otherFunctionsDriver, input: input, label: "seed \(seed)")
  }

  @Test func anOrdinaryWorkloadFitsA100MillionInstructionBudget() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: 100_000_000, timePerCall: nil))
    let script = try vm.load(Self.ordinaryWorkload, chunkName: "ordinary.lua")
    let results = try vm.call(script, returning: LuaString.self)
    let stock = try StockLua().run(Self.ordinaryWorkload, chunkName: "ordinary.lua", "")
    #expect(results.bytes == stock)
  }

  @Test func theSandboxSeesTheLimitedFunctions() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: 1_000_000, timePerCall: nil))
    let sandbox = try vm.makeSandbox()
    for source in [
      #"return ("a"):rep(3e5):find(".-b")"#, #"return string.match(("a"):rep(3e5), ".-b")"#,
      #"return table.move({}, 1, math.maxinteger - 1, 2)"#, #"return load(("x = 1 "):rep(1e6))"#,
    ] {
      let error = try #require(throws: LuaError.self) { try sandbox.load(source, chunkName: "sandboxed.lua").call() }
      #expect(error.kind == .instructionLimit, "\(source): \(error)")
    }
  }

  // MARK: - Work that is bounded now

  @Test func emptyRepetitionsReturnAtOnce() throws {
    let vm = try LuaVM(limits: .init(instructionsPerCall: 1_000, timePerCall: .seconds(10)))
    let script = try vm.load("""
      return string.rep("", math.maxinteger), string.rep("", 1e15, ""), ("x"):rep(0), ("x"):rep(-1, "y"), #("ab"):rep(3, ",")
      """, chunkName: "rep.lua")
    #expect(try vm.call(script) == ["", "", "", "", 8])
  }

  @Test func aPlainFindIsLinear() throws {
    // NB: stock Lua compares the needle at every offset: 200 KB × 20 MB, minutes of work.
    let vm = try LuaVM(limits: .init(timePerCall: nil))
    let script = try vm.load("""
      local hay = ("a"):rep(20 * 2^20)
      local needle = ("a"):rep(200 * 2^10) .. "b"
      return hay:find(needle, 1, true), (hay .. needle):find(needle, 1, true)
      """, chunkName: "plain.lua")
    let started = ContinuousClock.now
    let hay: Int64 = 20 << 20, needle: Int64 = 200 << 10
    let expected: [LuaValue] = [.nil, .integer(hay + 1), .integer(hay + needle + 1)]
    #expect(try vm.call(script) == expected)
    #expect(ContinuousClock.now - started < .seconds(ThreadSanitizer.isActive ? 60 : 5))
  }

  @Test func unpackingAHugeLengthFailsAtOnce() throws {
    let vm = try LuaVM()
    let script = try vm.load("""
      return table.unpack(setmetatable({}, {__len = function() return 2^62 end}))
      """, chunkName: "unpack.lua")
    let error = try #require(throws: LuaError.self) { try vm.call(script) }
    #expect(error.kind == .runtime)
    #expect(error.message == "unpack.lua:1: too many results to unpack")
  }

  // MARK: - Hostile work runs out of the call's limits

  @Test(arguments: Hostile.cases)
  func hostileWorkRunsOutOfASmallInstructionBudget(_ c: Hostile) throws {
    let (error, elapsed) = try c.run(.init(instructionsPerCall: 10_000_000, timePerCall: .seconds(30)))
    #expect(error.kind == .instructionLimit, "\(error)")
    #expect(error.message.hasPrefix("hostile.lua:"), "\(error)")
    // NB: the kind proves the budget stopped it; the bound only catches a hang (the time limit is 30 s).
    #expect(elapsed < .seconds(20))
  }

  @Test(arguments: Hostile.cases)
  func hostileWorkRunsOutOfTime(_ c: Hostile) throws {
    let (error, elapsed) = try c.run(.init(instructionsPerCall: nil, timePerCall: .milliseconds(100)))
    #expect(error.kind == .timeLimit, "\(error)")
    #expect(elapsed < .seconds(5))
  }

  /// NB: which limit comes first depends on the machine (100 million units take 0.2 to 5 s,
  /// depending on the function), so either is right; that one comes is the point. The default
  /// instruction budget and wall-clock guard, with one second of CPU time instead of the default
  /// five (which `CPUTimeLimitTests` holds): thirty cases at five seconds each would take minutes
  /// of CPU from the tests running beside them.
  @Test(arguments: Hostile.cases)
  func hostileWorkRunsOutOfTheDefaultBudgetOrASecondOfCPUTime(_ c: Hostile) throws {
    var limits = LuaVM.Limits.default
    limits.cpuTimePerCall = .seconds(1)
    let (error, elapsed) = try c.run(limits)
    #expect(error.kind == .instructionLimit || error.kind == .timeLimit, "\(error)")
    #expect(elapsed < .seconds(40))
  }

  // MARK: - Helpers

  /// Runs `driver` with `input` in stock Lua and in a VM, and expects the same text, line by line.
  func expectSameOutput(_ driver: String, input: String, label: String) throws {
    let stock = try StockLua().run(driver, chunkName: "diff", input)
    let vm = try LuaVM(limits: .init(instructionsPerCall: 2_000_000_000, timePerCall: nil))
    let chunk = try vm.load(driver, chunkName: "diff")
    let limited = try vm.call(chunk, input, returning: LuaString.self).bytes
    let stockLines = stock.split(separator: 10, omittingEmptySubsequences: false)
    let limitedLines = limited.split(separator: 10, omittingEmptySubsequences: false)
    #expect(stockLines.count == limitedLines.count, "\(label): line counts differ")
    #expect(stockLines.count > 100, "\(label): too few cases ran")
    var mismatches = 0
    for (index, (a, b)) in zip(stockLines, limitedLines).enumerated() where a != b {
      mismatches += 1
      if mismatches <= 5 {
        Issue.record("\(label), line \(index + 1):\n  stock:   \(String(decoding: a, as: UTF8.self))\n  limited: \(String(decoding: b, as: UTF8.self))")
      }
    }
    #expect(mismatches == 0, "\(label): \(mismatches) of \(stockLines.count) lines differ")
  }
}

/// A Lua state as liblua makes it (`luaL_newstate`, `luaL_openlibs`), nothing replaced.
final class StockLua {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let L: OpaquePointer

  init() throws {
    guard let L = luaL_newstate() else { throw Failure(description: "luaL_newstate failed") }
    self.L = L
    luaL_openlibs(L)
  }

  deinit { lua_close(L) }

  /// Runs `source` (named `=chunkName`) with one string argument; returns its first result's bytes.
  func run(_ source: String, chunkName: String, _ argument: String) throws -> [UInt8] {
    lua_settop(L, 0)
    var source = source
    let loaded = source.withUTF8 { text in
      text.withMemoryRebound(to: CChar.self) { luaL_loadbufferx(L, $0.baseAddress, $0.count, "=" + chunkName, nil) }
    }
    guard loaded == LUA_OK else { throw Failure(description: String(cString: clua_tostring(L, -1))) }
    var argument = argument
    argument.withUTF8 { text in
      text.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
    }
    guard clua_pcall(L, 1, 1, 0) == LUA_OK else { throw Failure(description: String(cString: clua_tostring(L, -1))) }
    var length = 0
    guard let bytes = lua_tolstring(L, -1, &length) else { throw Failure(description: "no string result") }
    return Array(UnsafeRawBufferPointer(start: bytes, count: length))
  }
}

/// One (subject, pattern, init, replacement, n) case, run through find (with and without plain),
/// match, gmatch and gsub (with the replacement string, a table and a function).
struct PatternCase {
  var subject: [UInt8]
  var pattern: [UInt8]
  var initial: String?     // Lua source of the init argument
  var replacement: String  // Lua source of gsub's string (or number) replacement
  var limit: String?       // Lua source of gsub's n

  static let alphabet: [[UInt8]] = ["a", "a", "a", "b", "b", "c", "(", ")", "_", "1", " ", ".", "%", "\0", "A", "[", "]", "^", "$", "\n"].map { Array($0.utf8) } + [[0x80], [0xC8]]
  static let smallAlphabet: [[UInt8]] = ["a", "b", "a", "b", "c"].map { Array($0.utf8) }
  static let fragments: [String] = [
    "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%A", "%W", "%p", "%l", "%u", "%x", "%c", "%g", "%z", "%Z", "%.", "%%", "%(",
    "%]", "[ab]", "[^a]", "[a-c]", "[%a_]", "[]]", "[^]]", "[a-]", "[-a]", "[%]]", "[^%d%s]", "[\0-a]", "[b-a]", "[%w%p]",
    "[a-%%]", "(", ")", "()", "%1", "%2", "%0", "%b()", "%bab", "%baa", "%b", "%ba", "%f[%a]", "%f[^a]", "%f[%z]", "%f", "%fa",
    "%f[a", "*", "+", "-", "?", "^", "$", "%", "[", "[^", "[a", "a*", "b-", ".-", "a+", ".*", "b?", "(a*)", "(.-)", "(%a+)",
    "()a", "(a)%1", "(()", "x", "\0", "%\0", "[%", "%f[%w]%w+", "%s*", "[^%s]+", "(.)%1", "((a)(b))", "(a(b)c)", "%f[ab]",
    "$a", "a$", "^a",
  ]
  static let smallFragments: [String] = [
    "a", "b", ".", "a*", "b*", "a-", "b-", ".-", ".*", "a?", "b+", "(", ")", "()", "%1", "%2", "[ab]", "[^a]", "%bab", "%f[a]",
    "%f[b]", "$", "^", "(a*)", "(.-)", "(b+)", "%f[^a]", "c",
  ]
  static let initials: [String?] = [nil, nil, nil, "1", "2", "3", "0", "-1", "-2", "-3", "-100", "100", "5", "6", "7", "math.mininteger", "math.maxinteger", "2.0"]
  static let replacements = [#""x""#, #""%0""#, #""%1""#, #""%2""#, #""%%""#, #""%""#, #""<%1|%2>""#, #""""#, #""%a""#, #""%9""#, #""[%0]""#, #""%%1""#, "5", "2.5", #""%1%1%1""#]

  static func random(using g: inout SeededGenerator, small: Bool) -> PatternCase {
    let letters = small ? smallAlphabet : alphabet
    let pieces = small ? smallFragments : fragments
    let subject = (0..<Int.random(in: 0...(small ? 16 : 12), using: &g)).flatMap { _ in letters.randomElement(using: &g)! }
    let pattern = (0..<Int.random(in: 0...(small ? 8 : 5), using: &g)).flatMap { _ in Array(pieces.randomElement(using: &g)!.utf8) }
    var limit: String? = nil
    switch Int.random(in: 0..<20, using: &g) {
    case 0..<3: limit = String(Int.random(in: -1...2, using: &g))
    case 3: limit = #""x""#
    default: break
    }
    return PatternCase(subject: subject, pattern: pattern, initial: initials.randomElement(using: &g)!, replacement: replacements.randomElement(using: &g)!, limit: limit)
  }

  /// A Lua string literal of any bytes (printable ASCII as is, the rest as \ddd).
  static func literal(_ bytes: [UInt8]) -> String {
    var text = "\""
    for byte in bytes {
      if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
        text.append(Character(UnicodeScalar(byte)))
      } else {
        let digits = String(byte)
        text += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
      }
    }
    return text + "\""
  }

  /// The cases as a chunk returning {subject, pattern, init, replacement, n} lists.
  static func source(of cases: [PatternCase]) -> String {
    "return {\n" + cases.map { c in
      "{\(literal(c.subject)), \(literal(c.pattern)), \(c.initial ?? "nil"), \(c.replacement), \(c.limit ?? "nil")},\n"
    }.joined() + "}"
  }

  static let edges: [(String, String)] = [
    ("hello world", "o w"), ("hello", "l+"), ("hello", "^h"), ("hello", "^e"), ("hello", "o$"), ("hello$", "$"), ("a$b", "$b"),
    ("", ""), ("", "^"), ("", "$"), ("", "^$"), ("abc", ""), ("abc", "^"), ("abc", ".-"), ("abc", ".-$"), ("abc", "()"),
    ("THE (quick) fox", "%((%a+)%)"), ("f(a(b)c)d", "%b()"), ("[[x]]", "%b[]"), ("aaa", "%baa"), ("THE (quick) fox", "%f[%a]%a+"),
    ("key = value", "(%w+)%s*=%s*(%w+)"), ("abcabc", "(abc)%1"), ("abab", "()(a)()"), ("aa", "()a%1"), ("x=1, y=2", "(%w+)=(%w+)"),
    ("hello", "(h)(e)(l)(l)(o)"), ("a.b", "%."), ("a+b", "a+b"), ("a+b", "a%+b"), ("\0a\0", "%z"), ("\0a\0", "[%z]"),
    ("abc", "[a-"), ("abc", "[a-]"), ("a-c", "[a-]+"), ("]]]", "[]]+"), ("^^", "[%^]+"), ("^a", "^^a"), ("abc", "a)"), ("abc", "a)."),
    ("abc", "(a"), ("abc", "%1"), ("abc", "(a)%2"), ("abc", "%"), ("abc", "a%"), ("abc", "[a%"), ("abc", "%f"), ("abc", "%fx"),
    ("abc", "%b"), ("abc", "%ba"), (String(repeating: "a", count: 300), String(repeating: "a?", count: 199)),
    (String(repeating: "a", count: 300), String(repeating: "a?", count: 200)), (String(repeating: "a", count: 300), String(repeating: "a?", count: 201)),
    ("a", String(repeating: "()", count: 32)), ("a", String(repeating: "()", count: 33)), ("a", String(repeating: "(", count: 33)),
    (String(repeating: "a", count: 40), String(repeating: "(a)", count: 32)), ("one two  three", "%s*"), ("one two", "%w*"), ("abc", "x*"),
    ("hello world from Lua", "%a+"), ("  trim  ", "^%s*(.-)%s*$"), ("a,b,,c", "([^,]*)"), ("α β", "[\u{80}-\u{FF}]+"), ("x", "[%w-]"),
    ("-", "[%w-]"), ("abc", "[^]"), ("abc", "[^]]"), ("]", "[]"), ("]", "[]]"), ("a]", "[]a]+"), ("%", "[%%]"), ("%", "%%"),
    ("aXb", "%u"), ("aXb", "%U+"), ("a\tb", "%c"), ("a b", "%S+"), ("0x1F", "%x+"), ("1.5e10", "%d+%.?%d*"), ("THE END", "%f[%z]"),
    ("THE END", "%f[%Z]"), ("ab", "%f[b]"), ("ab", "%f[a]"), ("", "%f[%z]"), ("ab", "%f[^%z]"), ("a^b", "^b"), ("x(y)z", "%b)("),
  ]

  /// Runs every case; one line of results per case.
  static let driver = #"""
    local cases = assert(load(..., "=cases"))()
    local function ser(v)
      local t = type(v)
      if t == "string" then return string.format("%q", v)
      elseif t == "number" then return math.type(v) .. ":" .. tostring(v)
      elseif t == "table" or t == "function" then return t
      else return tostring(v) end
    end
    local function pack(...) return {n = select("#", ...), ...} end
    local function serall(r)
      local parts = {}
      for i = 1, r.n do parts[#parts + 1] = ser(r[i]) end
      return table.concat(parts, ",")
    end
    local replTable = {a = "A", b = false, ab = 1, ["("] = {}, [""] = "E", aa = 2.5, ["1"] = "one"}
    local function replFunction(...)
      local first = ...
      if first == "b" then return nil end
      if first == "c" then return false end
      if first == "(" then return {} end
      if type(first) == "number" then return first * 2 end
      return select("#", ...) .. ":" .. table.concat({...}, ",")
    end
    local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
    local out = {}
    for _, c in ipairs(cases) do
      local s, p, init, r, maxn = c[1], c[2], c[3], c[4], c[5]
      local line = {ser(s), ser(p), ser(init), ser(r), ser(maxn)}
      line[#line + 1] = "find=" .. serall(pack(pcall(find, s, p, init)))
      line[#line + 1] = "findm=" .. serall(pack(pcall(function() return s:find(p, init) end)))
      line[#line + 1] = "plain=" .. serall(pack(pcall(find, s, p, init, true)))
      line[#line + 1] = "match=" .. serall(pack(pcall(match, s, p, init)))
      line[#line + 1] = "gmatch=" .. serall(pack(pcall(function()
        local acc, k = {}, 0
        for a, b, c in gmatch(s, p, init) do
          k = k + 1
          acc[#acc + 1] = ser(a) .. "/" .. ser(b) .. "/" .. ser(c)
          if k > 40 then break end
        end
        return table.concat(acc, ";")
      end)))
      line[#line + 1] = "gsubs=" .. serall(pack(pcall(gsub, s, p, r, maxn)))
      line[#line + 1] = "gsubm=" .. serall(pack(pcall(function() return s:gsub(p, r) end)))
      line[#line + 1] = "gsubt=" .. serall(pack(pcall(gsub, s, p, replTable, maxn)))
      line[#line + 1] = "gsubf=" .. serall(pack(pcall(gsub, s, p, replFunction, maxn)))
      out[#out + 1] = table.concat(line, " ")
    end
    -- argument errors
    local function try(f, ...) out[#out + 1] = serall(pack(pcall(f, ...))) end
    try(find) try(find, "a") try(find, "a", {}) try(find, 12345, 3) try(find, "a", "a", "x") try(find, "a", "a", 1.5)
    try(function() return ("a"):find() end) try(function() return ("a"):gsub("a") end)
    try(function() return ("a"):gsub("a", true) end) try(function() return ("a"):gsub("a", "b", 1.5) end)
    try(function() return string.gmatch("a") end) try(function() return string.gmatch("a", "a", {}) end)
    try(function() return string.match(nil, "a") end)
    try(function() return string.gsub("abc", "%w", "%1", 2.0) end)
    try(function() return string.gsub("abc", "b", function() error("boom") end) end)
    try(function() return string.gsub("abc", "b", setmetatable({}, {__index = function(t, k) return k:upper() end})) end)
    try(function() return string.gsub("hello world", "(o)", "[%1]", -1) end)
    try(function() return string.gsub("hello world", "o", "0", math.maxinteger) end)
    try(function() local f = string.gmatch("abc", ".") f() f() f() return f(), f() end)
    return table.concat(out, "\n")
    """#
}

extension LimitedLibraryTests {
  /// table.*, the wrapped string and utf8 functions, string.rep and load on random arguments (a
  /// generator in Lua, seeded from the test), one line of results per call.
  static let otherFunctionsDriver = #"""
    local seed, count = (...):match("(%d+) (%d+)")
    seed, count = tonumber(seed), tonumber(count)
    local state = seed * 2654435761 % 4294967296 + 1
    local function rnd(n)
      state = state ~ ((state << 13) & 0xffffffff)
      state = state ~ (state >> 17)
      state = state ~ ((state << 5) & 0xffffffff)
      return state % n + 1
    end
    local function pick(t) return t[rnd(#t)] end
    local function ser(v)
      local t = type(v)
      if t == "string" then return string.format("%q", v)
      elseif t == "number" then return math.type(v) .. ":" .. string.format("%.17g", v)
      elseif t == "table" or t == "function" or t == "userdata" or t == "thread" then return t
      else return tostring(v) end
    end
    local function pack(...) return {n = select("#", ...), ...} end
    local function serall(r)
      local parts = {}
      for i = 1, r.n do parts[#parts + 1] = ser(r[i]) end
      return table.concat(parts, ",")
    end
    local function dump(t, n)
      local parts = {}
      for i = -1, (n or 12) do parts[#parts + 1] = ser(rawget(t, i)) end
      return table.concat(parts, " ")
    end
    local out = {}
    local function emit(label, ...) out[#out + 1] = label .. " " .. serall(pack(...)) end

    local values = {1, 2, 3, "a", "b", "c", 10, 2.5, "x", 0}
    local ints = {nil, 0, 1, 2, 3, 4, 5, 6, -1, -2, 10, 100, math.maxinteger, math.mininteger, math.maxinteger - 1, 2.0, 1.5, "2", "x"}
    local function gen_list()
      local t = {}
      for i = 1, rnd(9) - 1 do t[i] = pick(values) end
      if rnd(6) == 1 then t[rnd(10)] = nil end
      return t
    end
    local function proxied(t)
      local len = rnd(3) == 1 and rnd(12) - 1 or #t
      return setmetatable({}, {__index = t, __newindex = t, __len = function() return len end}), t
    end

    for c = 1, count do
      local op = rnd(7)
      local t = gen_list()
      local target, backing = t, t
      if rnd(4) == 1 then target, backing = proxied(t) end
      if op == 1 then
        local a1, a2, a3 = pick(ints), pick(ints), pick(ints)
        -- (stock Lua would move for ever: only small ranges, or ranges it refuses)
        local f, e = math.tointeger(a1), math.tointeger(a2)
        if f and e and e >= f and (f > 0 or e < math.maxinteger + f) and e - f > 100 then a2 = a1 end
        local dest = rnd(3) == 1 and {} or nil
        local r = pack(pcall(table.move, target, a1, a2, a3, dest))
        emit("move " .. ser(a1) .. ser(a2) .. ser(a3), r[1], r[1] and (r[2] == target or r[2] == dest) or r[2], dump(backing), dest and dump(dest) or "")
      elseif op == 2 then
        local nargs, pos, v = rnd(4), pick(ints), pick(values)
        local r
        if nargs == 1 then r = pack(pcall(table.insert, target))
        elseif nargs == 2 then r = pack(pcall(table.insert, target, v))
        elseif nargs == 3 then r = pack(pcall(table.insert, target, pos, v))
        else r = pack(pcall(table.insert, target, pos, v, v)) end
        emit("insert " .. nargs .. ser(pos), serall(r), dump(backing))
      elseif op == 3 then
        local pos = pick(ints)
        local r = rnd(3) == 1 and pack(pcall(table.remove, target)) or pack(pcall(table.remove, target, pos))
        emit("remove " .. ser(pos), serall(r), dump(backing))
      elseif op == 4 then
        local sep, i, j = pick({nil, ",", "", "--", 5, {}}), pick(ints), pick(ints)
        if rnd(2) == 1 then i, j = rnd(5) - 1, rnd(10) - 1 end
        emit("concat", pcall(table.concat, target, sep, i, j))
      elseif op == 5 then
        local i, j = pick(ints), pick(ints)
        if rnd(2) == 1 then i, j = rnd(5) - 1, rnd(10) - 1 end
        emit("unpack", pcall(table.unpack, target, i, j))
        emit("unpack all", pcall(table.unpack, target))
      elseif op == 6 then
        -- distinct keys: any correct sort gives the same order
        local n, s, used = rnd(40) - 1, {}, {}
        for i = 1, n do
          local v repeat v = rnd(1000) until not used[v]
          used[v] = true
          s[i] = v
        end
        local kind, r = rnd(5)
        if kind == 1 then r = pack(pcall(table.sort, s))
        elseif kind == 2 then r = pack(pcall(table.sort, s, function(a, b) return a > b end))
        elseif kind == 3 then
          for i = 1, n do s[i] = tostring(s[i]) end
          r = pack(pcall(table.sort, s))
        elseif kind == 4 then
          if n > 0 then s[rnd(n)] = "x" end
          r = pack(pcall(table.sort, s))
        else r = pack(pcall(table.sort, (proxied(s)))) end
        emit("sort " .. kind, serall(r), dump(s, 40))
      else
        local r = pack(pcall(table.pack, table.unpack(t)))
        emit("pack", r[1], r[2].n, dump(r[2]))
      end
    end
    emit("sort1", pcall(table.sort, {3, 1, 2}, 3))
    emit("sort2", pcall(table.sort, {}, 3))
    emit("sort3", pcall(table.sort, setmetatable({}, {__len = function() return 2^40 end})))
    emit("sort4", pcall(table.sort, 5))
    emit("sort5", pcall(table.sort, {1, 2, 3}, function(a, b) error("cmp") end))
    emit("sort6", pcall(table.sort, {1, "x"}))
    emit("sort7", pcall(table.sort, setmetatable({}, {__len = function() return 2.5 end})))
    emit("move1", pcall(table.move, {1, 2, 3}, 1, 3, 3))
    emit("move2", pcall(table.move, 3, 1, 3, 0))
    emit("move3", pcall(table.move, {}, 1, 3, 0, 5))
    emit("move4", pcall(table.move, setmetatable({}, {__index = {}}), 1, 3, 1, setmetatable({}, {__index = {}})))
    emit("move5", pcall(function() return table.move({}, -1, math.maxinteger, 2) end))
    emit("move6", pcall(function() return table.move({}, 1, 3, math.maxinteger) end))
    emit("insert1", pcall(function() return table.insert(setmetatable({}, {__len = function() return math.maxinteger end, __newindex = {}, __index = {}}), 5, 1) end))
    emit("unpack1", pcall(table.unpack, {}, 1, 1e8))
    emit("unpack2", pcall(table.unpack, {1, 2}, math.mininteger, math.maxinteger))
    emit("unpack3", pcall(table.unpack, "abc", 1, 2))
    emit("unpack4", pcall(table.unpack, {1, 2, 3}, math.maxinteger - 1, math.maxinteger))
    emit("concat1", pcall(table.concat, {1, {}, 3}))
    emit("concat2", pcall(function() return table.concat({}, "x", math.maxinteger, math.maxinteger) end))
    emit("remove1", pcall(table.remove, setmetatable({}, {__len = function() return -1 end, __index = {}, __newindex = {}}), 3))

    local strs = {"", "a", "hello", "Hello World", "\0\1\2", "héllo wörld", "\255\254", string.rep("ab", 40), 12, 3.5, nil, {}}
    for c = 1, count do
      local s, i, j = pick(strs), pick(ints), pick(ints)
      local op = rnd(16)
      if op == 1 then emit("upper " .. ser(s), pcall(string.upper, s))
      elseif op == 2 then emit("lower " .. ser(s), pcall(string.lower, s))
      elseif op == 3 then emit("reverse " .. ser(s), pcall(string.reverse, s))
      elseif op == 4 then emit("sub " .. ser(s) .. ser(i) .. ser(j), pcall(string.sub, s, i, j))
      elseif op == 5 then emit("sub2 " .. ser(s) .. ser(i), pcall(function() return s:sub(i) end))
      elseif op == 6 then emit("byte " .. ser(s) .. ser(i) .. ser(j), pcall(string.byte, s, i, j))
      elseif op == 7 then emit("char", pcall(string.char, rnd(300) - 20, rnd(256) - 1, i))
      elseif op == 8 then
        local n, sep = pick(ints), pick({nil, "", ",", "--", 7})
        if type(n) == "number" and n > 1000 then n = rnd(50) end
        emit("rep " .. ser(s) .. ser(n) .. ser(sep), pcall(string.rep, s, n, sep))
      elseif op == 9 then
        if type(s) == "table" then s = "t" end
        local f = pick({"%d", "%5.2f", "%s|%s", "%q", "%x", "%-5s", "%%", "%", "%10.3q", "%i", "%c", "%a", "%g %g", "%s"})
        emit("format " .. f, pcall(string.format, f, pick({1, 2.5, "x", s, math.maxinteger, -0.0}), pick({1, "y"})))
      elseif op == 10 then
        local f = pick({"i4", "s", "z", "c3", "<i2>i2", "!4 i3 d", "s1", "j", "n", "x", "Xi4", "i17", "c", "bB"})
        local ok, p = pcall(string.pack, f, pick({1, 300, -5, "abc", 2.5}), pick({1, "z"}))
        emit("pack " .. f, ok, p)
        if ok then emit("unpack " .. f, pcall(string.unpack, f, p, pick({nil, 1, 2, -1, 100}))) end
        emit("packsize " .. f, pcall(string.packsize, f))
      elseif op == 11 then emit("ulen " .. ser(s) .. ser(i) .. ser(j), pcall(utf8.len, s, i, j, rnd(2) == 1))
      elseif op == 12 then emit("ucp " .. ser(s) .. ser(i) .. ser(j), pcall(utf8.codepoint, s, i, j, rnd(2) == 1))
      elseif op == 13 then emit("uoff " .. ser(s) .. ser(i) .. ser(j), pcall(utf8.offset, s, i, j))
      elseif op == 14 then emit("uchar", pcall(utf8.char, rnd(0x200000) - 10, pick({65, 0x10ffff, 0x7fffffff, -1, 2.5, "x"})))
      elseif op == 15 then
        emit("codes " .. ser(s), pcall(function()
          local acc = {}
          for p, c in utf8.codes(s, rnd(2) == 1) do acc[#acc + 1] = p .. ":" .. c end
          return table.concat(acc, ";")
        end))
      else emit("len " .. ser(s), pcall(string.len, s)) end
    end
    local it = utf8.codes("ab\128\128c")
    emit("it1", pcall(it, "ab\128\128c", 0))
    emit("it2", pcall(it, "ab\128\128c", 2))
    emit("it3", pcall(it, "ab\128\128c", -3))
    emit("it4", pcall(it, "\128\128", 0))
    emit("it5", pcall(it))
    emit("codes1", pcall(utf8.codes))

    for _, src in ipairs({"return 1 + 1", "return ...", "syntax error here", "return x", "\27Lua", "", "return", "local a = [[", "return _ENV"}) do
      for _, mode in ipairs({false, "t", "b", "bt", "x"}) do
        local r = pack(pcall(load, src, nil, mode or nil, {x = 42}))
        local r2 = pack(pcall(load, src, "=name", mode or nil))
        local r3 = pack(pcall(load, src))
        emit("load " .. ser(src) .. ser(mode), serall(r), r[2] and serall(pack(pcall(r[2], 7))) or "", serall(r2), serall(r3),
          r3[2] and serall(pack(pcall(r3[2], 8))) or "")
      end
    end
    emit("load num", pcall(load, 42))
    emit("load fn", pcall(function() local parts, k = {"return ", "1", "+2"}, 0 return load(function() k = k + 1 return parts[k] end)() end))
    emit("load nil", pcall(load))
    emit("load chunkname table", pcall(load, "x", {}))
    emit("dump", pcall(function() return load(string.dump(function() return 5 end))() end))
    emit("dump2", pcall(string.dump, print))
    emit("rep2", pcall(string.rep, "x", 2^31))
    emit("rep4", pcall(string.rep, "", 2^40, "ab"))
    emit("rep5", pcall(string.rep, "ab", 2^30, "x"))
    emit("rep6", pcall(string.rep, "abc", 3, ", "))
    emit("rep7", pcall(string.rep, "", 1, "x"))
    emit("rep8", pcall(string.rep, "", 2, "x"))
    emit("rep9", pcall(string.rep, "ab", 1, "x"))
    emit("rep10", pcall(function() return ("x"):rep(1.5) end))
    emit("rep11", pcall(string.rep))
    emit("rep12", pcall(string.rep, "ab", "3"))
    return table.concat(out, "\n")
    """#

  /// Text work of the usual size; returns a digest of its results (compared with stock Lua's).
  static let ordinaryWorkload = #"""
    local words = {"lorem", "ipsum", "dolor", "sit", "amet,", "consectetur", "adipiscing", "elit", "key=value;", "x = 42", "\n"}
    local parts = {}
    for i = 1, 200000 do parts[i] = words[(i * 7) % #words + 1] end
    local s = table.concat(parts, " ")
    assert(#s > 1000000)
    local upper, n1 = s:gsub("%a+", string.upper)
    local swapped, n2 = s:gsub("(%w+)=(%w+)", "%2=%1")
    local collapsed, n3 = s:gsub("%s+", " ")
    local words_seen = 0
    for w in s:gmatch("%a+") do words_seen = words_seen + 1 end
    local lines = 0
    for line in s:gmatch("[^\n]*") do lines = lines + 1 end
    local small = s:sub(1, 100000)
    local as, sum = 0, 0
    for i = 1, #small do
      if small:sub(i, i) == "a" then as = as + 1 end
      sum = sum + small:byte(i)
    end
    local from, to = s:find("x = 42", 1000, true)
    local numbers = {}
    for i = 1, 20000 do numbers[i] = (i * 7919) % 10007 end
    table.sort(numbers)
    local back = {}
    for i = 1, 1000 do table.insert(back, 1, i) end
    for i = 1, 500 do table.remove(back, 1) end
    return table.concat({#upper, n1, #swapped, n2, #collapsed, n3, words_seen, lines, as, sum, from, to,
      numbers[1], numbers[20000], #back, back[1], utf8.len(s), #string.format("%s|%d", s, 7), #s:rep(3, ",")}, " ")
    """#
}

/// Work that stock Lua does in C without end (or for minutes), or that hides from the count hook
/// in a short loop.
struct Hostile: Sendable, CustomTestStringConvertible {
  var name: String
  var source: String
  var testDescription: String { name }

  /// Runs the case under `limits`; its error and how long it took.
  func run(_ limits: LuaVM.Limits) throws -> (LuaError, Duration) {
    let vm = try LuaVM(limits: limits)
    let script = try vm.load(source, chunkName: "hostile.lua")
    let started = ContinuousClock.now
    let error = try #require(throws: LuaError.self) { try vm.call(script) }
    return (error, ContinuousClock.now - started)
  }

  static let hugeLength = "setmetatable({}, {__len = function() return 2^62 end, __index = {}, __newindex = {}})"

  static let cases: [Hostile] = [
    Hostile(name: "find .-b (quadratic)", source: #"return ("a"):rep(3e5):find(".-b")"#),
    Hostile(name: "find .-.-.-b (cubic)", source: #"return ("a"):rep(3e3):find(".-.-.-b")"#),
    Hostile(name: "match .-b", source: #"return ("a"):rep(3e5):match(".-b")"#),
    Hostile(name: "gmatch .-b", source: #"for m in ("a"):rep(3e5):gmatch(".-b") do end"#),
    Hostile(name: "gsub .-b", source: #"return ("a"):rep(3e5):gsub(".-b", "")"#),
    Hostile(name: "plain find of a 200 KB needle in 20 MB, again and again", source: """
      local hay, needle = ("a"):rep(20 * 2^20), ("a"):rep(200 * 2^10) .. "b"
      for i = 1, 1e9 do hay:find(needle, 1, true) end
      """),
    Hostile(name: "rep of 16 MB in a loop", source: #"for i = 1, 1e9 do local s = string.rep("x", 2^24) end"#),
    Hostile(name: "table.move to maxinteger", source: "return table.move({}, 1, math.maxinteger - 1, 2)"),
    Hostile(name: "table.insert under a __len of 2^62", source: "table.insert(\(hugeLength), 1, 'x')"),
    Hostile(name: "table.remove under a __len of 2^62", source: "table.remove(\(hugeLength), 1)"),
    Hostile(name: "table.concat under a __len of 2^62", source: "return table.concat(setmetatable({}, {__len = function() return 2^62 end, __index = rawlen}))"),
    Hostile(name: "table.sort under a __len of 2^31 - 2", source: """
      table.sort(setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, __newindex = rawequal}))
      """),
    Hostile(name: "table.unpack of half a million in a loop", source: """
      local t = setmetatable({}, {__len = function() return 500000 end, __index = rawlen})
      for i = 1, 1e9 do table.unpack(t) end
      """),
    Hostile(name: "table.concat in a loop", source: """
      local t = {} for i = 1, 1e5 do t[i] = "abcdefgh" end
      for i = 1, 1e9 do table.concat(t, ",") end
      """),
    Hostile(name: "upper in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do s:upper() end"#),
    Hostile(name: "lower in a loop", source: #"local s = ("X"):rep(2^24) for i = 1, 1e9 do s:lower() end"#),
    Hostile(name: "reverse in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do s:reverse() end"#),
    Hostile(name: "sub in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do s:sub(2) end"#),
    Hostile(name: "byte in a loop", source: #"local s = ("x"):rep(2^16) for i = 1, 1e9 do s:byte(1, -1) end"#),
    Hostile(name: "char in a loop", source: #"local t = {("x"):rep(2^16):byte(1, -1)} for i = 1, 1e9 do string.char(table.unpack(t)) end"#),
    Hostile(name: "format in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do string.format("%s", s) end"#),
    Hostile(name: "format %q in a loop", source: #"local s = ("\0"):rep(2^22) for i = 1, 1e9 do string.format("%q", s) end"#),
    Hostile(name: "pack in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do string.pack("s", s) end"#),
    Hostile(name: "utf8.len in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do utf8.len(s) end"#),
    Hostile(name: "utf8.codepoint in a loop", source: #"local s = ("x"):rep(2^16) for i = 1, 1e9 do utf8.codepoint(s, 1, -1) end"#),
    Hostile(name: "utf8.offset in a loop", source: #"local s = ("x"):rep(2^24) for i = 1, 1e9 do utf8.offset(s, 2^24) end"#),
    Hostile(name: "utf8.char in a loop", source: #"local t = {("x"):rep(2^16):byte(1, -1)} for i = 1, 1e9 do utf8.char(table.unpack(t)) end"#),
    Hostile(name: "utf8.codes' iterator over continuation bytes", source: #"local s = ("\128"):rep(2^24) local f = utf8.codes(s) for i = 1, 1e9 do f(s, 0) end"#),
    Hostile(name: "load of 4 MB in a loop", source: #"local src = ("x=1 "):rep(2^20) for i = 1, 1e9 do load(src) end"#),
    Hostile(name: "load of 4 MB from a reader in a loop", source: """
      local src = ("x=1 "):rep(2^20)
      for i = 1, 1e9 do
        local done = false
        load(function() if not done then done = true return src end end)
      end
      """),
  ]
}
