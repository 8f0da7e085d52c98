import CLua
import CLuaShim
import Foundation

extension LuaVM {
  /// Compiles a text chunk; errors name `chunkName` (`counter.lua:12: …`).
  ///
  /// ```swift
  /// let chunk = try vm.load(source, chunkName: "counter.lua", environment: sandbox.environment)
  /// let feature = try chunk.call()
  /// ```
  ///
  /// - Parameter environment: the chunk's `_ENV`; `nil` keeps the VM's globals (trusted code).
  /// - Throws: ``LuaError`` of kind ``LuaError/Kind/syntax``. Binary chunks are always refused.
  public func load(_ source: String, chunkName: String, environment: LuaTable? = nil) throws(LuaError) -> LuaFunction {
    var source = source
    let result: Result<LuaFunction, LuaError> = source.withUTF8 { text in
      Result { () throws(LuaError) in try load(UnsafeRawBufferPointer(text), chunkName: chunkName, environment: environment) }
    }
    return try result.get()
  }

  /// Compiles a text chunk given as bytes, as Lua reads a file: a string literal keeps its bytes
  /// whatever they are (`"caf\xE9"` in Latin-1 is four bytes long), where ``load(_:chunkName:environment:)``
  /// takes Swift text.
  ///
  /// ```swift
  /// let chunk = try vm.load(bytes: try Data(contentsOf: file), chunkName: "feature.lua")
  /// ```
  ///
  /// - Throws: ``LuaError`` of kind ``LuaError/Kind/syntax``. Binary chunks are always refused.
  public func load(bytes: some ContiguousBytes, chunkName: String, environment: LuaTable? = nil) throws(LuaError) -> LuaFunction {
    let result: Result<LuaFunction, LuaError> = bytes.withUnsafeBytes { buffer in
      Result { () throws(LuaError) in try load(buffer, chunkName: chunkName, environment: environment) }
    }
    return try result.get()
  }

  private func load(_ source: UnsafeRawBufferPointer, chunkName: String, environment: LuaTable?) throws(LuaError) -> LuaFunction {
    let L = state
    let status = ("=" + chunkName).withCString { name in
      lunar_load(L, source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count, name)
    }
    guard status == LUA_OK else { throw takeError(status: status, from: L) }
    if let environment {
      guard ObjectIdentifier(environment.reference.vm) == ObjectIdentifier(self) else {
        lunar_pop(L, 1)
        throw LuaError(kind: .misuse, message: "the environment table belongs to another LuaVM")
      }
      // NB: a main chunk's first upvalue is its _ENV; rawgeti and setupvalue do not allocate.
      lua_rawgeti(L, lunar_registryindex(), lua_Integer(environment.reference.id))
      _ = lua_setupvalue(L, -2, 1)
    }
    return LuaFunction(LuaRef(vm: self, id: try popReference(), type: .function))
  }

  /// Calls `function` with `arguments` and returns all its results as data.
  ///
  /// ```swift
  /// let results = try vm.call(reduce, state, ["type": "increment"] as LuaValue)
  /// ```
  ///
  /// Arguments are pushed and the call made in one step; references (``LuaRef``, ``LuaTable``) and
  /// scalars are pushed without any extra protected call, strings and tables inside one.
  ///
  /// > Tip: Variadic generics are not specialized across modules, so each call pays for runtime
  /// > generic metadata. For a hot call with a table and one value (a reducer), use
  /// > ``call(_:on:with:)``, which costs little more than `lua_pcall` itself.
  ///
  /// - Throws: ``LuaError``: the function's error (with traceback, file and line), an overrun of
  ///   ``Limits``, or a conversion error for an argument or a result that is not data.
  @inlinable @discardableResult
  public func call<each Argument: LuaPushable>(
    _ function: LuaFunction, _ arguments: repeat each Argument
  ) throws(LuaError) -> [LuaValue] {
    var writer = makeWriter()
    defer { recycle(&writer) }
    try write(function, repeat each arguments, to: &writer)
    return try finishCall(&writer)
  }

  /// Calls `function` and reads its first result as `R` (a missing result reads as nil).
  ///
  /// ```swift
  /// let effect = try vm.call(reduce, state, action, returning: LuaRef.self)   // keep functions inside
  /// let count = try vm.call(getCount, state, returning: Int.self)
  /// ```
  @inlinable
  public func call<each Argument: LuaPushable, R: LuaReadable>(
    _ function: LuaFunction, _ arguments: repeat each Argument, returning: R.Type
  ) throws(LuaError) -> R {
    var writer = makeWriter()
    defer { recycle(&writer) }
    try write(function, repeat each arguments, to: &writer)
    let L = state
    let base = lua_gettop(L)
    _ = try finishCall(&writer, results: 1)
    defer { lua_settop(L, base) }
    return try R.read(from: LuaSlot(vm: self, state: L, index: base + 1, root: "result #1"))
  }

  /// Writes the function and the arguments of a call.
  @inlinable
  func write<each Argument: LuaPushable>(
    _ function: LuaFunction, _ arguments: repeat each Argument, to writer: inout LuaWriter
  ) throws(LuaError) {
    guard ObjectIdentifier(function.reference.vm) == writer.owner else { throw Self.foreign("function") }
    writer.writeRef(function.reference.id)
    var position = 0
    // NB: a pack expansion rather than `for … in repeat each`, which builds tuple metadata per call.
    repeat try Self.writeArgument(each arguments, position: &position, to: &writer)
  }

  @inlinable
  static func writeArgument<A: LuaPushable>(_ argument: A, position: inout Int, to writer: inout LuaWriter) throws(LuaError) {
    position += 1
    do { try argument.write(to: &writer) } catch { throw argumentError(error, position: position) }
  }

  @usableFromInline
  static func foreign(_ what: String) -> LuaError {
    LuaError(kind: .misuse, message: "\(what): a reference that belongs to another LuaVM")
  }

  @usableFromInline
  static func argumentError(_ error: LuaConversionError, position: Int) -> LuaError {
    LuaError(error.rooted(at: "argument #\(position)"))
  }

  /// Runs the call written in `writer` and reads all results as data.
  @inlinable
  func finishCall(_ writer: inout LuaWriter) throws(LuaError) -> [LuaValue] {
    let count = try finishCall(&writer, results: lunar_multret())
    if count == 0 { return [] }
    return try takeResults(count)
  }

  /// Reads and pops the top `count` values as data.
  @usableFromInline
  func takeResults(_ count: Int32) throws(LuaError) -> [LuaValue] {
    let L = state
    let base = lua_gettop(L) - count
    defer { lua_settop(L, base) }
    var results: [LuaValue] = []
    results.reserveCapacity(Int(count))
    // NB: one reader for all results, and the error's root named only on failure: this runs for
    //     every reducer call.
    var reader = StackReader(state: L, depthLimit: Int(host.pointee.data_depth))
    for i in 0..<count {
      do {
        results.append(try reader.read(at: base + 1 + i))
      } catch {
        throw LuaError(error.rooted(at: "result #\(i + 1)"))
      }
    }
    return results
  }

  /// Runs the call written in `writer`; leaves the results on the stack and returns their count.
  @inlinable
  func finishCall(_ writer: inout LuaWriter, results: Int32) throws(LuaError) -> Int32 {
    let L = state
    var count: Int32 = 0
    let status = lunar_call(host, L, writer.base.assumingMemoryBound(to: UInt8.self), writer.count, results, &count)
    guard status == LUA_OK else { throw callError(status: status, on: L, hasObject: count > 0) }
    return count
  }

  @usableFromInline
  func callError(status: Int32, on L: OpaquePointer, hasObject: Bool) -> LuaError {
    takeError(status: status, from: L, hasObject: hasObject, usesHandler: true)
  }

  /// Pushes and calls in one step; leaves the results on the stack and returns their count.
  func invoke<each Argument: LuaPushable>(
    _ function: LuaFunction, _ arguments: repeat each Argument, results: Int32
  ) throws(LuaError) -> Int32 {
    var writer = makeWriter()
    defer { recycle(&writer) }
    try write(function, repeat each arguments, to: &writer)
    return try finishCall(&writer, results: results)
  }
}

extension LuaWriter {
  /// Writes a reference, turning a foreign one into a misuse error named by `root`.
  mutating func write(_ reference: LuaRef, root: String) throws(LuaError) {
    do { try write(reference) } catch { throw LuaVM.foreign(root) }
  }
}
