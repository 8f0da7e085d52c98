import CLuaShim
import Foundation

/// Whether code runs on the process's main thread, answered without a system call.
///
/// ```swift
/// if MainThread.isCurrent { /* the main actor's thread: no other main-actor code runs now */ }
/// ```
///
/// Foundation's `Thread.isMainThread` makes two system calls on Linux; a store sends actions from
/// the main actor, and asks on every one. The main thread is recorded when the program starts.
///
/// > Important: The main thread is not always the main actor's: some test harnesses run the main
/// > actor on a thread of their own. See ``runsMainActor``.
package enum MainThread {
  /// `true` on the main thread.
  @inlinable
  package static var isCurrent: Bool {
    switch lunar_on_main_thread() {
    case 1: return true
    case 0: return false
    default: return Thread.isMainThread
    }
  }

  /// Whether the main actor was seen running on the main thread. In an executable it always does;
  /// some test harnesses run it on a thread of their own, and then this stays `false`.
  package static var runsMainActor: Bool {
    get { lunar_main_actor_on_main_thread() != 0 }
    set { if newValue { lunar_note_main_actor_on_main_thread() } }
  }
}
