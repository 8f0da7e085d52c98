import ConcurrencyExtras
import Foundation
#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The live transport's session: it receives each body piece by piece and stops reading one once
/// it passes its request's ``HTTPRequest/maximumResponseBytes``, so an answer never takes more of
/// the host's memory than that. Redirects are not followed.
final class HTTPStreamingSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  /// What one request has received so far, and who awaits it.
  private struct Receiver {
    var limit: Int
    var url: String
    var response: HTTPURLResponse?
    var body = Data()
    var tooLarge = false
    var continuation: CheckedContinuation<(HTTPURLResponse, Data), any Error>
  }

  private let receivers = LockIsolated<[Int: Receiver]>([:])
  // NB: the session keeps its delegate alive until invalidated; the transport keeps the session.
  private(set) var session: URLSession!

  override init() {
    super.init()
    session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
  }

  /// The answer to `urlRequest`: its head and at most `limit` bytes of body.
  func response(to urlRequest: URLRequest, url: String, limit: Int) async throws -> (HTTPURLResponse, Data) {
    let task = session.dataTask(with: urlRequest)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        receivers.withValue {
          $0[task.taskIdentifier] = Receiver(limit: limit, url: url, continuation: continuation)
        }
        task.resume()
        if Task.isCancelled { task.cancel() }
      }
    } onCancel: {
      task.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let refuse = receivers.withValue { receivers -> Bool in
      guard var receiver = receivers[dataTask.taskIdentifier] else { return true }
      receiver.response = response as? HTTPURLResponse
      // NB: a declared length past the limit is refused before any of the body is read.
      receiver.tooLarge = response.expectedContentLength > Int64(receiver.limit)
      receivers[dataTask.taskIdentifier] = receiver
      return receiver.tooLarge
    }
    completionHandler(refuse ? .cancel : .allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let refuse = receivers.withValue { receivers -> Bool in
      guard var receiver = receivers[dataTask.taskIdentifier], !receiver.tooLarge else { return false }
      if receiver.body.count + data.count > receiver.limit {
        receiver.tooLarge = true
        receiver.body = Data()
      } else {
        receiver.body.append(data)
      }
      receivers[dataTask.taskIdentifier] = receiver
      return receiver.tooLarge
    }
    if refuse { dataTask.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    guard let receiver = receivers.withValue({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    if receiver.tooLarge {
      receiver.continuation.resume(throwing: HTTPError.responseTooLarge(url: receiver.url, limit: receiver.limit))
    } else if let error {
      receiver.continuation.resume(throwing: error)
    } else if let response = receiver.response {
      receiver.continuation.resume(returning: (response, receiver.body))
    } else {
      receiver.continuation.resume(throwing: HTTPError.unreachable(url: receiver.url, reason: "the answer is not HTTP"))
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}
