#include <pthread.h>
#include <time.h>
#include "internal.h"

/*
 * The watchdog: one thread for the process that notices calls past their deadline.
 *
 * The count hook reads the clock every thousand instructions, and lunar_charge after the work of
 * the library's C functions. Neither sees a single VM instruction that does a lot of work in Lua's
 * own C code: `s .. s` or `s == t` on strings of 100 MB, a table constructor with a huge vararg.
 * A thousand of those would pass between two readings. So once a call is past its deadline, the
 * watchdog sets the count hook of the call's threads to fire at their next instruction (the way
 * Lua's own interpreter stops a script on ctrl-C), and the hook raises the time limit's error.
 *
 * Shared with the Lua thread, through atomic builtins only: a host's `watch_deadline` (0 between
 * calls), `watch_states` (the threads of the entries running now) and `watch_poking` (the watchdog
 * is setting their hooks: a call that ends waits for it, so no thread is touched once it may be
 * freed). The list of hosts is the watchdog's, under its lock.
 */

enum { WATCH_INTERVAL = 100 * 1000 * 1000 }; /* the longest sleep, in nanoseconds */

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake;
static lunar_host *watched = NULL;
static int watch_started = 0;

/* Makes the hook of `h`'s running threads fire at once, if its call is past its deadline. */
static void poke(lunar_host *h, int64_t now, int64_t *next) {
  int64_t deadline = __atomic_load_n(&h->watch_deadline, __ATOMIC_ACQUIRE);
  if (deadline == 0) return;
  if (now < deadline) {
    if (deadline < *next) *next = deadline;
    return;
  }
  __atomic_store_n(&h->watch_poking, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&h->watch_deadline, __ATOMIC_SEQ_CST) != 0) {
    for (int i = 0; i < 8; i++) {
      lua_State *L = __atomic_load_n(&h->watch_states[i], __ATOMIC_SEQ_CST);
      if (L != NULL) lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, 1);
    }
  }
  __atomic_store_n(&h->watch_poking, 0, __ATOMIC_SEQ_CST);
}

static void *watch(void *unused) {
  (void)unused;
  pthread_mutex_lock(&watch_lock);
  for (;;) {
    int64_t now = lunar_now();
    int64_t next = now + WATCH_INTERVAL;
    for (lunar_host *h = watched; h != NULL; h = (lunar_host *)h->watch_next) poke(h, now, &next);
    struct timespec until = { .tv_sec = next / 1000000000, .tv_nsec = next % 1000000000 };
    pthread_cond_timedwait(&watch_wake, &watch_lock, &until);
  }
  return NULL;
}

static void start(void) {
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  /* NB: the coarse clock the deadlines are read from runs on CLOCK_MONOTONIC's base. */
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&watch_wake, &attributes);
  pthread_condattr_destroy(&attributes);
  pthread_t thread;
  pthread_attr_t thread_attributes;
  pthread_attr_init(&thread_attributes);
  pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &thread_attributes, watch, NULL) == 0) watch_started = 1;
  pthread_attr_destroy(&thread_attributes);
}

void lunar_watch_register(lunar_host *h) {
  pthread_mutex_lock(&watch_lock);
  if (!watch_started) start();
  h->watch_next = watched;
  watched = h;
  h->watch_registered = 1;
  pthread_mutex_unlock(&watch_lock);
}

void lunar_watch_unregister(lunar_host *h) {
  if (!h->watch_registered) return;
  pthread_mutex_lock(&watch_lock);
  for (lunar_host **p = &watched; *p != NULL; p = (lunar_host **)&(*p)->watch_next) {
    if (*p == h) {
      *p = (lunar_host *)h->watch_next;
      break;
    }
  }
  h->watch_registered = 0;
  pthread_mutex_unlock(&watch_lock);
}
