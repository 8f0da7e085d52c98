extension LuaVM {
  /// The resource limits of a VM. Each overrun is a ``LuaError`` of its own kind, and the VM stays
  /// usable for the next call.
  ///
  /// ```swift
  /// let vm = try LuaVM(limits: .init(instructionsPerCall: 1_000_000, memoryBytes: 64 << 20))
  /// vm.limits.instructionsPerCall = nil   // lift the budget
  /// ```
  public struct Limits: Sendable, Hashable {
    /// The instruction budget of one call from Swift (``LuaVM/call(_:_:)``, a thread's resume),
    /// counted by a count hook over every coroutine the call runs; `nil` for none. Nested calls
    /// (Lua → Swift → Lua) share the outer call's budget. Overrun: ``LuaError/Kind/instructionLimit``.
    ///
    /// The hook is set only once a call has run 10 to 20 ms (a watchdog thread arms it), so short
    /// calls run at stock speed and the first milliseconds of a long one are not counted. A budget
    /// under 50 million is counted exactly, from the first instruction, at the hook's cost: while a
    /// count hook is set, Lua runs every instruction through its hook path, about half as fast.
    public var instructionsPerCall: Int?
    /// The VM's memory ceiling in bytes, enforced by its allocator; `nil` for none. Overrun:
    /// ``LuaError/Kind/memory`` (after Lua's emergency collection).
    public var memoryBytes: Int?
    /// The wall-clock limit of one call from Swift, measured from its start, across every coroutine
    /// and nested call it runs; `nil` for none (``cpuTimePerCall`` still applies). It guards
    /// against hangs; ``cpuTimePerCall`` is the limit of work, which does not depend on how loaded
    /// the machine is. It holds inside the standard library's C functions
    /// too: pattern matching, `string.rep`, `table.move` and the other functions whose work is not
    /// bounded by the size of their input count their steps and check the clock (see the docs'
    /// containment page). Overrun: ``LuaError/Kind/timeLimit``.
    ///
    /// > Important: Time spent in your own Swift host functions counts too, but cannot be cut short:
    /// > a host function that blocks delays the error until it returns.
    public var timePerCall: Duration?
    /// The CPU time the calling thread may spend in one call from Swift (nested calls and
    /// coroutines included); `nil` for none. Read at most every 10 ms of wall-clock time once the
    /// call's hook is armed (the first 10 ms of a call count as spent, so a short call never reads
    /// it), and, like
    /// ``timePerCall``, inside the standard library's C functions that count their work. Overrun:
    /// ``LuaError/Kind/timeLimit``, `CPU time limit exceeded (5 s per call)`.
    public var cpuTimePerCall: Duration?
    /// The deepest nesting of tables converted to or from ``LuaValue`` and Codable types. Overrun:
    /// ``LuaError/Kind/conversion``.
    public var dataDepth: Int

    /// Limits; the defaults suit a host running many small calls.
    public init(
      instructionsPerCall: Int? = 100_000_000, memoryBytes: Int? = 512 << 20, timePerCall: Duration? = .seconds(30),
      cpuTimePerCall: Duration? = .seconds(5), dataDepth: Int = 100
    ) {
      self.instructionsPerCall = instructionsPerCall
      self.memoryBytes = memoryBytes
      self.timePerCall = timePerCall
      self.cpuTimePerCall = cpuTimePerCall
      self.dataDepth = dataDepth
    }

    /// 100 million instructions, 5 s of CPU time and 30 s of wall-clock time per call, 512 MiB,
    /// 100 levels of data. A million string keys (`t["k" .. i] = i`) take about 2 s of CPU time.
    public static let `default` = Limits()
    /// No instruction budget, no time limit and no memory ceiling (for trusted code and benchmarks).
    public static let unlimited = Limits(instructionsPerCall: nil, memoryBytes: nil, timePerCall: nil, cpuTimePerCall: nil)
  }
}
