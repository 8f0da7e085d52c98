import Composable
import LuaBridge

extension LuaFeatureInstance {
  /// Runs the coroutine of an `fx.run` effect until it ends: `send` feeds the store, an
  /// asynchronous dependency call is awaited here and its result handed back, and cancellation
  /// closes the coroutine.
  func drive(handle: Int64, origin: String, send: Send<LuaValue>) async {
    let prelude = host.prelude
    let thread: LuaThread
    do {
      let entry = try vm.call(prelude.takeHandle, handle, returning: LuaTable?.self)
      guard let entry else { return }
      let body = try vm.call(prelude.effectBody, entry, returning: LuaFunction.self)
      thread = try vm.newThread(body)
    } catch {
      report(error, origin: origin)
      return
    }
    let key = ObjectIdentifier(thread)
    threads[key] = thread
    // The streams Swift dependencies opened for this effect: released when it ends, however.
    var streams: [Int64] = []
    defer {
      thread.close()
      threads[key] = nil
      for stream in streams { LuaOpenStreams.shared.close(stream) }
    }

    var reply = Reply.start
    while !Task.isCancelled {
      let outcome: LuaThread.Outcome
      do {
        switch reply {
        case .start, .resume: outcome = try thread.resume()
        case let .value(value): outcome = try thread.resume(true, value)
        case let .failure(message): outcome = try thread.resume(false, message)
        case .cancelled: return
        }
      } catch {
        report(error, origin: origin)
        return
      }
      guard case let .yielded(values) = outcome else { return }
      switch EffectYield(values, sendTag: prelude.sendTag, callTag: prelude.callTag) {
      case let .send(action)?:
        send(action)
        reply = .resume
      case let .call(name, arguments)?:
        reply = await call(name, arguments: arguments)
        if case .cancelled = reply { return }
        if case let .value(value) = reply, let stream = LuaOpenStreams.id(in: value) { streams.append(stream) }
      case let .nextOfStream(stream)?:
        do {
          reply = .value(try await LuaOpenStreams.shared.next(stream) ?? .nil)
        } catch {
          reply = Task.isCancelled ? .cancelled : .failure("the stream failed: \(error)")
        }
        if case .cancelled = reply { return }
      case let .waitForStream(stream)?:
        // NB: cancelled while waiting, the loop ends here: closing the coroutine tells the stream.
        await host.streams.wait(for: stream)
        reply = .resume
      case nil:
        report(
          LuaFeatureError(
            kind: .effect, feature: feature.name,
            message: "the effect started at \(origin) yielded outside of send or a dependency call"
          ),
          origin: origin
        )
        return
      }
    }
  }

  /// What the coroutine is resumed with next.
  enum Reply {
    case start
    case resume
    case value(LuaValue)
    case failure(String)
    case cancelled
  }

  private func call(_ name: String, arguments: [LuaValue]) async -> Reply {
    guard case let .async(function) = host.dependencies.functions[name] else {
      return .failure("deps.\(name) is not an asynchronous dependency of this host")
    }
    do {
      return .value(try await function(arguments))
    } catch is CancellationError {
      return .cancelled
    } catch {
      if Task.isCancelled { return .cancelled }
      return .failure("deps.\(name) failed: \(error)")
    }
  }

  private func report(_ error: any Error, origin: String) {
    switch error {
    case let error as LuaError:
      host.report(LuaFeatureError(error, kind: .effect, feature: feature.name))
    case let error as LuaFeatureError:
      host.report(error)
    default:
      host.report(
        LuaFeatureError(kind: .effect, feature: feature.name, message: "the effect started at \(origin) failed: \(error)")
      )
    }
  }
}
