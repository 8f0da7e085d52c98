#ifndef LUNAR_INTERNAL_H
#define LUNAR_INTERNAL_H

#include "CLuaShim.h"

/* Registry keys: the addresses of these objects (light userdata keys never allocate on lookup). */
extern const char lunar_key_array_marker;
/* Removes a __gc a script planted in `metatable` before C sets it on a table (program.c). */
void lunar_clear_finalizer(lua_State *L, int metatable);
extern const char lunar_key_traceback;
extern const char lunar_key_errortext;
extern const char lunar_key_hostfn_meta;
extern const char lunar_key_raise_marker;

/* The allocator of every state (alloc.c). */
void *lunar_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Whether a call has any limit the count hook enforces. */
static inline int lunar_budget_on(lunar_host *h) {
  return h->instruction_limit > 0 || h->time_limit > 0 || h->cpu_limit > 0;
}

/* Replaces the standard library functions whose work is not bounded by their input (pattern
   matching, string.rep, table.move…) with versions that count their steps with lunar_charge
   (limited.c), and xpcall with one whose handler cannot outlive a spent call (limits.c). Runs
   inside openlibs' protected call: may raise. */
void lunar_open_limited_libraries(lua_State *L);
void lunar_open_limited_base(lua_State *L);
/* Replaces coroutine.create and wrap with versions whose threads carry the count hook from the
   start (coroutines.c). Runs inside openlibs' protected call: may raise. */
void lunar_open_hooked_coroutines(lua_State *L);

/* Lua's argument errors (luaL_argerror, luaL_typeerror), naming `fallback` when the call site
   gives no name: a function called through pcall, which stock Lua names after the global it is
   found in, and the sandbox's functions are in no global table the auxiliary library searches.
   Raise. */
int lunar_argument_error(lua_State *L, int arg, const char *fallback, const char *message);
int lunar_type_error(lua_State *L, int arg, const char *fallback, const char *expected);

/* CLOCK_MONOTONIC in nanoseconds (the coarse clock: cheap, precise to a few milliseconds). */
int64_t lunar_now(void);
/* The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID: a system call, so it is
   read at most every LUNAR_CPU_CHECK_EVERY of wall-clock time, never for a call shorter than that). */
int64_t lunar_thread_cpu_now(void);
#define LUNAR_CPU_CHECK_EVERY 10000000
/* Units of C work (see lunar_charge) between two readings of the clock. */
#define LUNAR_CLOCK_EVERY 4096

/* The watchdog (watchdog.c): a thread that looks at every running call each LUNAR_WATCH_PERIOD.
   A call it sees running at two looks in a row has run at least that long: it arms the count hook
   of the call's threads, and from then on the hook counts the budget and reads the clock. A call
   past its deadline gets a hook that fires at its next instruction (one instruction can be slow:
   `s .. s`, `s == t` on strings of 100 MB). A short call never carries the hook: while any count
   hook is set, Lua runs every instruction through its hook path, at about half speed. */
#define LUNAR_WATCH_PERIOD 10000000
/* A budget below this is counted from a call's first instruction (the hook on at once): unarmed,
   the VM could spend it before the watchdog's second look. */
#define LUNAR_ARM_BUDGET 50000000
void lunar_watch_register(lunar_host *h);
void lunar_watch_unregister(lunar_host *h);

/* The count hook that enforces the limits once a call is armed (limits.c). */
void lunar_count_hook(lua_State *L, lua_Debug *ar);

/* The count hook of an entry's thread as the call wants it: off at a call's start (unless the
   budget is small), on once the call is armed or spent. Cannot raise. */
static inline void lunar_sync_hook(lunar_host *h, lua_State *L, int depth) {
  int want = h->exhausted || __atomic_load_n(&h->armed, __ATOMIC_SEQ_CST);
  lua_Hook hook = lua_gethook(L);
  if (want) {
    if (hook != lunar_count_hook || (h->exhausted && lua_gethookcount(L) != 1))
      lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, h->exhausted ? 1 : h->hook_interval);
  } else if (hook != NULL && depth == 0) {
    /* NB: only the outermost entry clears a hook (one left by an earlier call): a nested entry
       may race with the watchdog arming the call, whose hook must stay. */
    lua_sethook(L, NULL, 0, 0);
  }
}

/* Budget bookkeeping around every entry that runs Lua code on L. */
static inline void lunar_budget_enter(lunar_host *h, lua_State *L) {
  int depth = h->depth++;
  h->untimed_stack = (h->untimed_stack << 1) | (uint64_t)(h->untimed != 0);
  h->untimed = 0;
  if (!lunar_budget_on(h)) return;
  if (depth == 0) {
    h->exhausted = 0;
    h->remaining = h->instruction_limit;
    int64_t now = lunar_now();
    h->deadline = now + h->time_limit;
    h->until_clock = LUNAR_CLOCK_EVERY;
    /* NB: no system call here, on every call: the thread's CPU time is first read once the call
       has run LUNAR_CPU_CHECK_EVERY, and the wall-clock time until then counts as spent. */
    h->cpu_known = 0;
    h->next_cpu_check = now + LUNAR_CPU_CHECK_EVERY;
    /* NB: the message handler records where an error happened, but Lua does not run it for
       memory errors: a position left from an earlier error must not be taken for theirs. */
    h->error_line = 0;
    h->error_source[0] = '\0';
    __atomic_store_n(&h->armed, h->arm_at_entry, __ATOMIC_RELAXED);
    if (!h->watch_registered) lunar_watch_register(h);
    lunar_sync_hook(h, L, 0);
    __atomic_store_n(&h->watch_states[0], L, __ATOMIC_SEQ_CST);
    __atomic_store_n(&h->watch_deadline, h->time_limit > 0 ? h->deadline : 0, __ATOMIC_RELAXED);
    __atomic_store_n(&h->watch_call, ++h->watch_serial, __ATOMIC_SEQ_CST);
  } else {
    /* NB: published before `armed` is read: the watchdog arms after publishing `armed`, then
       reads the threads, so one of the two sees the other. */
    if (depth < 8) __atomic_store_n(&h->watch_states[depth], L, __ATOMIC_SEQ_CST);
    lunar_sync_hook(h, L, depth);
  }
}

static inline int lunar_budget_leave(lunar_host *h, int status) {
  int exhausted = h->exhausted;
  int depth = --h->depth;
  h->untimed = (int)(h->untimed_stack & 1);
  h->untimed_stack >>= 1;
  if (h->watch_registered) {
    if (depth > 0 && depth < 8) __atomic_store_n(&h->watch_states[depth], NULL, __ATOMIC_SEQ_CST);
    if (depth == 0) {
      lua_State *L = h->watch_states[0];
      __atomic_store_n(&h->watch_states[0], NULL, __ATOMIC_SEQ_CST);
      __atomic_store_n(&h->watch_call, 0, __ATOMIC_SEQ_CST);
      /* NB: the watchdog may be setting a hook of this call's threads: wait until it is done, so
         it never touches a thread the next moments may free, nor a later call. */
      while (__atomic_load_n(&h->watch_poking, __ATOMIC_SEQ_CST)) { }
      /* the host's own calls between two calls run without the hook */
      if (L != NULL && lua_gethook(L) != NULL) lua_sethook(L, NULL, 0, 0);
    }
  }
  if (depth == 0) h->exhausted = 0;
  if (exhausted && status != LUA_OK && status != LUA_YIELD) return exhausted;
  return status;
}

/* Charges `cost` units of work done in C to the running call: one unit is about one VM instruction
   (a step of a pattern match, a table slot moved, a few dozen bytes copied). Counts against the
   instruction budget and, every LUNAR_CLOCK_EVERY units, checks the wall-clock deadline; raises the
   limit's error (at the calling Lua line) when either has run out. Outside a budgeted call it does
   nothing. May raise: call only from a C function Lua called. */
void lunar_charge(lua_State *L, int64_t cost);

/* Reads the clock now and raises the time limit's error if the running call is past its deadline
   (or already spent). Outside a budgeted call it does nothing. May raise. */
void lunar_check_deadline(lua_State *L);

/* Whether the running call has run out of instructions or time: a message handler seeing an error
   then must not run more script code (see the sandbox's xpcall). Cannot raise. */
static inline int lunar_spent(lunar_host *h) { return h->depth > 0 && h->exhausted != 0; }


/* The count hook on L if the running call is armed or spent and the hook is not there
   (lunar_budget_pause takes it off while trusted code runs; an error raised there can leave it
   off). Cannot raise. */
static inline void lunar_ensure_hook_of(lunar_host *h, lua_State *L) {
  if (lunar_budget_on(h) && h->depth > 0 && lua_gethook(L) != lunar_count_hook &&
      (h->exhausted || __atomic_load_n(&h->armed, __ATOMIC_SEQ_CST)))
    lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, h->exhausted ? 1 : h->hook_interval);
}

/* The message handler used by lunar_call. */
int lunar_msgh(lua_State *L);

/* ---- the host's calls into Lua (lunar_call, lunar_call_refs_integer, lunar_call_c) ---- */

/* Makes room for `slots` values and returns the message handler's index: 1 on the main thread,
   where it stays (see lunar_install_handler), or a fresh one pushed on a coroutine; 0 when there
   is no room. Cannot raise. */
static inline int lunar_open_entry(lunar_host *h, lua_State *L, int slots) {
  if (L == h->main) return lua_checkstack(L, slots) ? 1 : 0;
  if (!lua_checkstack(L, slots + 1)) return 0;
  lua_pushcfunction(L, lunar_msgh);
  return lua_gettop(L);
}

/* lua_pcall under the message handler at `handler`, with the instruction budget (and its hook). */
static inline int lunar_budgeted_pcall(lunar_host *h, lua_State *L, int nargs, int nresults, int handler) {
  lunar_budget_enter(h, L);
  return lunar_budget_leave(h, lua_pcall(L, nargs, nresults, handler));
}

/* Removes a handler lunar_open_entry pushed, under the results. Rotate and pop never allocate. */
static inline void lunar_close_entry(lua_State *L, int handler) {
  if (handler != 1) {
    lua_rotate(L, handler, -1);
    lua_pop(L, 1);
  }
}
void lunar_ensure_hook(lua_State *L);


/* Decodes one value of a program (raises on malformed programs or memory errors). */
typedef struct lunar_reader {
  const unsigned char *p;
  const unsigned char *end;
  lunar_host *host;  /* with `strings`: the host whose string cache serves this program */
  int strings;       /* the stack slot of the cache's strings (lunar_decode_begin), or 0: no cache */
} lunar_reader;
/* Makes the reader use the host's cache of short strings: pushes the strings it keeps, which stay
   under what is decoded (a worker returns only the values above them). */
void lunar_decode_begin(lua_State *L, lunar_reader *r, lunar_host *h);
void lunar_decode_value(lua_State *L, lunar_reader *r, int depth);

int lunar_trampoline(lua_State *L);

#endif
