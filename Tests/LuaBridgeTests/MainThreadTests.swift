import Foundation
import LuaBridge
import Testing

/// `MainThread.isCurrent` answers like Foundation, without its system calls.
struct MainThreadTests {
  @MainActor @Test func theAnswerIsFoundationsOnTheMainActor() {
    // NB: Swift Testing on Linux runs the main actor on a thread of its own: both say false there,
    //     both say true in an executable (the CLI's process tests go through that path).
    #expect(MainThread.isCurrent == Thread.isMainThread)
  }

  @Test func anotherThreadIsNotTheMainThread() async {
    let answer = await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: (MainThread.isCurrent, Thread.isMainThread)) }.start()
    }
    #expect(answer.0 == false)
    #expect(answer.1 == false)
  }
}
