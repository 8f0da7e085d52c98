#include <pthread.h>
#include <time.h>
#include "internal.h"

/*
 * The watchdog: one thread for the process that looks at every running call each
 * LUNAR_WATCH_PERIOD (internal.h).
 *
 * A call starts without the count hook: while any count hook is set, Lua 5.4 runs each instruction
 * through its hook path, at about half speed, and most calls end in microseconds. A call the
 * watchdog finds running at two looks in a row has run at least a period: it is armed, its threads
 * get the count hook, which from then on counts the budget and reads the clocks.
 *
 * Neither the hook nor lunar_charge sees a single VM instruction that does a lot of work in Lua's
 * own C code: `s .. s` or `s == t` on strings of 100 MB, a table constructor with a huge vararg.
 * A thousand of those would pass between two readings. So once a call is past its deadline, the
 * watchdog sets the count hook of the call's threads to fire at their next instruction (the way
 * Lua's own interpreter stops a script on ctrl-C), and the hook raises the time limit's error.
 *
 * Shared with the Lua thread, through atomic builtins only: a host's `watch_call` (the running
 * call's serial number, 0 between calls), `watch_deadline`, `watch_states` (the threads of the
 * entries running now), `armed`, and `watch_poking` (the watchdog is setting their hooks: a call
 * that ends waits for it, so no thread is touched once it may be freed, and no later call is
 * armed). The list of hosts and `watch_seen` are the watchdog's, under its lock.
 */

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_wake;
static lunar_host *watched = NULL;
static int watch_started = 0;

/* Arms `h`'s running call if it was running at the last look too, and makes its hooks fire at
   once if it is past its deadline. */
static void look(lunar_host *h, int64_t now) {
  uint64_t call = __atomic_load_n(&h->watch_call, __ATOMIC_SEQ_CST);
  uint64_t seen = h->watch_seen;
  h->watch_seen = call;
  if (call == 0) return;
  int64_t deadline = __atomic_load_n(&h->watch_deadline, __ATOMIC_RELAXED);
  int late = deadline != 0 && now >= deadline;
  int arm = call == seen && !__atomic_load_n(&h->armed, __ATOMIC_SEQ_CST);
  if (!late && !arm) return;
  __atomic_store_n(&h->watch_poking, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&h->watch_call, __ATOMIC_SEQ_CST) == call) {
    __atomic_store_n(&h->armed, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 8; i++) {
      lua_State *L = __atomic_load_n(&h->watch_states[i], __ATOMIC_SEQ_CST);
      if (L == NULL) continue;
      if (late) lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, 1);
      else if (lua_gethook(L) != lunar_count_hook) lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, h->hook_interval);
    }
  }
  __atomic_store_n(&h->watch_poking, 0, __ATOMIC_SEQ_CST);
}

static void *watch(void *unused) {
  (void)unused;
  pthread_mutex_lock(&watch_lock);
  for (;;) {
    int64_t now = lunar_now();
    for (lunar_host *h = watched; h != NULL; h = (lunar_host *)h->watch_next) look(h, now);
    if (watched == NULL) {
      pthread_cond_wait(&watch_wake, &watch_lock); /* until a host registers */
      continue;
    }
    int64_t next = now + LUNAR_WATCH_PERIOD;
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
  pthread_cond_signal(&watch_wake);
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
