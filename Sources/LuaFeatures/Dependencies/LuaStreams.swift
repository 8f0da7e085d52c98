import Foundation
import LuaBridge

extension LuaDependencies {
  /// Registers an asynchronous function that streams: in Lua it returns an iterator, which an
  /// effect loops over as values arrive, and which ends when the stream ends.
  ///
  /// ```swift
  /// dependencies.stream("speech.start") { () -> AsyncThrowingStream<String, any Error> in
  ///   recognizer.transcripts()
  /// }
  /// ```
  ///
  /// ```lua
  /// return fx.run(function(send)
  ///   for text in deps.speech.start() do send { type = "transcript", text = text } end
  /// end)
  /// ```
  ///
  /// Cancelling the effect (`fx.cancel`, the removal of the child that started it, the end of the
  /// store) stops the loop and releases the stream: its `onTermination` runs, telling the producer.
  public mutating func stream<Element: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable () async throws -> AsyncThrowingStream<Element, any Error>
  ) {
    register(name, .async { arguments in
      try Self.checkCount(arguments, 0, name)
      return LuaOpenStreams.shared.open(try await body(), name: name)
    })
  }

  /// Registers an asynchronous function of one argument that streams (see the function of no argument).
  public mutating func stream<A: Decodable & Sendable, Element: Encodable & Sendable>(
    _ name: String, _ body: @escaping @Sendable (A) async throws -> AsyncThrowingStream<Element, any Error>
  ) {
    register(name, .async { arguments in
      try Self.checkCount(arguments, 1, name)
      return LuaOpenStreams.shared.open(try await body(Self.decode(A.self, arguments, 0, name)), name: name)
    })
  }
}

/// The streams Swift dependencies returned to effects, by number: the prelude turns the number
/// (`{ ["@stream"] = n }`) into an iterator whose every call asks the effect's driver for the next
/// value (``EffectYield/nextOfStream(_:)``).
final class LuaOpenStreams: @unchecked Sendable {
  static let shared = LuaOpenStreams()

  /// The key of the table a streaming dependency answers with.
  static let marker = "@stream"

  /// One open stream; only the effect that opened it reads it, one value at a time.
  final class Open: @unchecked Sendable {
    var iterator: AsyncThrowingStream<LuaValue, any Error>.AsyncIterator
    init(_ stream: AsyncThrowingStream<LuaValue, any Error>) { iterator = stream.makeAsyncIterator() }
  }

  private let lock = NSLock()
  private var nextID: Int64 = 0
  private var streams: [Int64: Open] = [:]

  /// Keeps `stream` open and answers with its number, for the prelude.
  func open<Element: Encodable & Sendable>(_ stream: AsyncThrowingStream<Element, any Error>, name: String) -> LuaValue {
    let values = AsyncThrowingStream<LuaValue, any Error> { continuation in
      let task = Task {
        do {
          for try await element in stream {
            continuation.yield(try LuaDependencies.encode(element, name))
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
    let id = lock.withLock {
      nextID += 1
      streams[nextID] = Open(values)
      return nextID
    }
    return .table([LuaString(Self.marker): .integer(id)])
  }

  /// The stream `value` names, when a dependency answered with one.
  static func id(in value: LuaValue) -> Int64? {
    guard case let .table(fields) = value, fields.count == 1 else { return nil }
    return fields[LuaString(marker)]?.integerValue
  }

  /// The next value of stream `id`; nil at its end (or once it is closed).
  func next(_ id: Int64) async throws -> LuaValue? {
    guard let open = lock.withLock({ streams[id] }) else { return nil }
    return try await open.iterator.next()
  }

  /// Releases stream `id`: its producer learns that nobody reads it any more.
  func close(_ id: Int64) {
    _ = lock.withLock { streams.removeValue(forKey: id) }
  }
}
