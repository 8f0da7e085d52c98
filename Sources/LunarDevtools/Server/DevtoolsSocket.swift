import FlyingFox
import Foundation

/// A page's live connection: messages from the hub out, requests from the page in.
///
/// It holds its place among the server's connections until it closes.
struct DevtoolsSocket: WSMessageHandler {
  let hub: DevtoolsHub
  let pass: DevtoolsConnectionGate.Pass
  /// The longest message the page may send, which it is told first.
  let messageLimit: Int

  func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
    let hub = self.hub
    let pass = self.pass
    let (id, messages) = await MainActor.run { hub.connect() }
    // NB: bounded like the hub's messages: a page that sends without reading does not grow it.
    let (replies, reply) = AsyncStream<WSMessage>.makeStream(bufferingPolicy: .bufferingOldest(DevtoolsHub.backlogLimit))
    reply.yield(.text(DevtoolsMessage.limits(messageBytes: messageLimit)))
    Task {
      for await message in client {
        switch message {
        case let .text(text):
          await MainActor.run { hub.receive(text, from: id) }
        case .data:
          reply.yield(.text(DevtoolsMessage.notice("not understood: a binary message (requests are JSON text)", isError: true)))
        case .close:
          break
        }
      }
      await MainActor.run { hub.disconnect(id) }
      pass.leave()
    }
    return AsyncStream { continuation in
      let forward = Task {
        await withTaskGroup(of: Void.self) { group in
          group.addTask { for await text in messages { continuation.yield(.text(text)) } }
          group.addTask { for await message in replies { continuation.yield(message) } }
          // NB: the hub ends the page's messages when it disconnects it (a page far behind).
          await group.next()
          group.cancelAll()
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in
        forward.cancel()
        reply.finish()
      }
    }
  }
}

/// Frames from a page, each message at most `limit` bytes: a longer one (in one frame or over
/// several) ends the connection with close code 1009, *message too big*, before it is put together.
///
/// > Note: The server library reads a single frame whole before it is handed here; only a client
/// > holding the token gets this far.
struct DevtoolsFrameLimit: WSHandler {
  let limit: Int
  let handler: MessageFrameWSHandler

  func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
    let limit = self.limit
    let limited = AsyncThrowingStream<WSFrame, any Error> { continuation in
      let task = Task {
        var size = 0
        do {
          for try await frame in client {
            switch frame.opcode {
            case .text, .binary: size = frame.payload.count
            case .continuation: size = size.addingReportingOverflow(frame.payload.count).partialValue
            default: break
            }
            guard size <= limit, size >= 0 else {
              // NB: as if the page had closed with 1009: the handler echoes it to the page and ends.
              continuation.yield(.close(code: WSCloseCode(1009, reason: "message too big: at most \(limit) bytes")))
              break
            }
            continuation.yield(frame)
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in task.cancel() }
    }
    return try await handler.makeFrames(for: limited)
  }
}
