#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>
#include "internal.h"
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* The main thread's id, recorded before main() runs; 0 when it could not be (the library was
   loaded later, from another thread). Written once, before any thread exists, so never raced. */
static pthread_t main_thread;
static int main_thread_known;
/* Whether the main actor was seen running on the main thread (see LuaFeatures' LuaReducer.reduce). */
static _Atomic int main_actor_there;

__attribute__((constructor)) static void lunar_record_main_thread(void) {
#if defined(__APPLE__)
  if (!pthread_main_np()) return;
#elif defined(__linux__)
  if ((pid_t)syscall(SYS_gettid) != getpid()) return;
#else
  return;
#endif
  main_thread = pthread_self();
  main_thread_known = 1;
}

int lunar_on_main_thread(void) {
  if (!main_thread_known) return -1;
  return pthread_equal(pthread_self(), main_thread) ? 1 : 0;
}

int lunar_main_actor_on_main_thread(void) { return main_actor_there; }

void lunar_note_main_actor_on_main_thread(void) { main_actor_there = 1; }
