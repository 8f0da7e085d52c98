#ifndef LUNAR_CLUASHIM_H
#define LUNAR_CLUASHIM_H

/*
 * The C half of LuaBridge: the only code in Lunar that may raise a Lua error.
 *
 * Lua raises errors with longjmp, which skips the cleanup of any Swift frame it crosses. So Swift
 * calls only the functions below that are "protected" (they run their work under lua_pcall and return
 * a status) or that cannot raise (reads, rawgeti on the registry, settop downwards). Swift functions
 * exposed to Lua return a status to `lunar_trampoline`, and that C function alone calls lua_error.
 *
 * Stack discipline: every protected function documents what it leaves on the stack. On failure it
 * leaves exactly one error object on top, except when even that could not be pushed (then the stack
 * is as it was and the status is LUA_ERRMEM).
 */

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stddef.h>
#include <stdint.h>

/* Status codes beyond Lua's own (LUA_OK ... LUA_ERRERR). */
enum {
  LUNAR_ERRBUDGET = 100,  /* the instruction budget of the call ran out */
  LUNAR_ERRTIME = 101     /* the wall-clock limit of the call ran out */
};

/* Opcodes of a push program: the flat, host-written description of values to push. */
enum {
  LUNAR_OP_NIL = 0,
  LUNAR_OP_FALSE = 1,
  LUNAR_OP_TRUE = 2,
  LUNAR_OP_INTEGER = 3, /* int64 */
  LUNAR_OP_NUMBER = 4,  /* double */
  LUNAR_OP_STRING = 5,  /* u64 length, bytes (a 32-bit length would wrap past 4 GiB) */
  LUNAR_OP_REF = 6,     /* i32 registry reference */
  LUNAR_OP_ARRAY = 7,   /* u32 size hint, values (NIL leaves a hole), END */
  LUNAR_OP_TABLE = 8,   /* u32 size hint, (STRING key, value)*, END */
  LUNAR_OP_END = 9
};

/* What a host (Swift) function reports back to the trampoline. */
enum {
  LUNAR_HOST_RETURN = 0,      /* return the top `nresults` values */
  LUNAR_HOST_YIELD = 1,       /* yield the top `nresults` values (inside a coroutine) */
  LUNAR_HOST_ERROR = 2,       /* raise the value on top as is */
  LUNAR_HOST_ERROR_WHERE = 3  /* raise the value on top, prefixed with the caller's position if a string */
};

typedef int (*lunar_host_call)(lua_State *L, void *context, int *nresults);
typedef void (*lunar_host_release)(void *context);

/* The slots of the decoder's cache of short strings (program.c). */
#define LUNAR_STRING_SLOTS 128

/* Per-VM state shared by the allocator, the count hook and the message handler. */
typedef struct lunar_host {
  /* allocator */
  size_t bytes_in_use;
  size_t bytes_limit;          /* 0: unlimited */
  size_t memory_refusals;      /* allocations refused (limit or malloc failure) */
  /* instruction budget */
  int64_t instruction_limit;   /* 0: unlimited */
  int64_t remaining;
  int hook_interval;
  int depth;                   /* nesting of budgeted entries (calls, resumes) */
  int exhausted;               /* 0, or LUNAR_ERRBUDGET / LUNAR_ERRTIME: what ran out */
  /* wall-clock limit (CLOCK_MONOTONIC nanoseconds) */
  int64_t time_limit;          /* 0: unlimited */
  int64_t deadline;            /* set when the outermost budgeted entry starts */
  int64_t until_clock;         /* units of C work (lunar_charge) left before the clock is read again */
  /* CPU-time limit of the calling thread (CLOCK_THREAD_CPUTIME_ID nanoseconds) */
  int64_t cpu_limit;           /* 0: unlimited */
  int64_t cpu_deadline;        /* the thread's CPU time at which the running call is spent */
  int cpu_known;               /* cpu_deadline is set (the thread's CPU time was read in this call) */
  int64_t next_cpu_check;      /* when (CLOCK_MONOTONIC) to read the thread's CPU time again */
  int cpu_spent;               /* the time that ran out was CPU time, not wall-clock time */
  /* the count hook: off at first, armed by the watchdog once a call has run a while (or at once
     for a budget small enough to be spent before that); trusted code runs untimed */
  int arm_at_entry;            /* the budget is small: the hook is on from a call's first instruction */
  int armed;                   /* the running call's threads carry the hook (atomic: the watchdog sets it) */
  int untimed;                 /* trusted code runs (lunar_budget_pause): its instructions are not counted */
  uint64_t untimed_stack;      /* `untimed` of the entries below the running one, one bit each */
  /* the watchdog (watchdog.c): it reads these from its own thread, with atomic builtins */
  int64_t watch_deadline;      /* the running call's deadline (0: none) */
  uint64_t watch_call;         /* the running call's serial number, 0 between calls */
  uint64_t watch_serial;       /* the last serial number given */
  uint64_t watch_seen;         /* the watchdog's: the call it saw running at its last look */
  int watch_poking;            /* the watchdog is setting the hook of this host's threads */
  int watch_registered;
  lua_State *watch_states[8];  /* the threads of the nested entries running now, by depth */
  void *watch_next;            /* the watchdog's list of hosts */
  /* coroutines */
  int host_yielded;            /* the last yield came from a host function */
  /* where the last runtime error happened (filled by the message handler) */
  int error_line;
  char error_source[LUA_IDSIZE];
  /* the Swift object that owns this VM (unretained) */
  void *owner;
  /* the running thread: the main one, or the coroutine whose host function runs now */
  lua_State *current;
  /* the main thread, which keeps the message handler at stack index 1 (see lunar_install_handler) */
  lua_State *main;
  /* the reusable push-program buffer (owned here; malloc'd) and whether a writer holds it */
  unsigned char *program;
  size_t program_capacity;
  int program_busy;
  /* the nesting limit for conversions */
  int data_depth;
  /* host functions */
  lunar_host_call call;
  lunar_host_release release;
  /* the allocator's pool of small blocks (alloc.c); all zero at first */
  void *pool_free[8];          /* free blocks by size class: 16, 32, …, 128 bytes */
  void *pool_chunks;           /* the chunks blocks are cut from, freed by lunar_pool_release */
  char *pool_cursor;           /* the uncut rest of the newest chunk */
  size_t pool_left;
  /* the decoder's short strings (program.c): the registry index of the table that keeps them
     alive (0 before lunar_openlibs), the text of each slot's string and its length */
  int strings;
  const char *string_text[LUNAR_STRING_SLOTS];
  size_t string_length[LUNAR_STRING_SLOTS];
} lunar_host;

/* ---- state ---- */

/* A new state whose allocator counts against `host`; NULL if it cannot be created. Not protected. */
lua_State *lunar_newstate(lunar_host *host);
/* Frees the allocator's pool of small blocks and takes the host off the watchdog's list: call
   after lua_close of the host's state. */
void lunar_pool_release(lunar_host *host);
/* Opens base, string, table, math, utf8, coroutine (and no others), removes dofile and loadfile,
   and creates the registry slots LuaBridge uses. Protected; leaves nothing (or the error). */
int lunar_openlibs(lua_State *L);
lunar_host *lunar_host_of(lua_State *L);
/* Sets the per-call instruction budget (0: none), the per-call wall-clock limit and the per-call
   CPU-time limit of the calling thread in nanoseconds (0: none), and (re)installs the count hook
   on L. */
void lunar_set_limits(lua_State *L, int64_t instructions, int64_t nanoseconds, int64_t cpu_nanoseconds);

/* ---- pushing ---- */

/* Pushes the values of a program. Protected; on success `*count` values were pushed. */
int lunar_push(lua_State *L, const unsigned char *program, size_t length, int *count);
/* Pushes the values of a program and calls the first with the rest as arguments, under a message
   handler (traceback, error position) and the instruction budget. `nresults` may be LUA_MULTRET.
   On success `*count` results are on the stack; on failure one error object. */
int lunar_call(lunar_host *h, lua_State *L, const unsigned char *program, size_t length, int nresults, int *count);

/* lunar_call for `function(table, value)` with both in the registry and an integer value: no
   program to write or decode. Same results and errors as lunar_call. */
int lunar_call_refs_integer(lunar_host *h, lua_State *L, int function, int table, int64_t value,
                            int nresults, int *count);
/* Pushes the message handler at index 1 of the main thread, where it stays, so calls on the main
   thread need not push it each time. Call once, on an empty main stack. Cannot raise. */
void lunar_install_handler(lua_State *L);
/* Sets t[k] = v raw, where the program pushes t, k, v. Protected; leaves nothing (or the error). */
int lunar_rawset(lua_State *L, const unsigned char *program, size_t length);
/* Pushes t[k] raw, where the program pushes t, k. Protected; leaves the value (or the error). */
int lunar_rawget(lua_State *L, const unsigned char *program, size_t length);
/* Pops the top value into the registry. Protected; `*ref` is the reference (LUA_REFNIL for nil). */
int lunar_ref(lua_State *L, int *ref);
/* Compiles a text chunk (never binary) under `chunkname`. Protected by Lua; leaves the function
   (or the error message). */
int lunar_load(lua_State *L, const char *source, size_t length, const char *chunkname);
/* luaL_tolstring of the value at idx (runs __tostring). Protected; leaves the string (or the error). */
int lunar_tostring(lua_State *L, int idx);
/* Pushes a new empty table. Protected. */
int lunar_newtable(lua_State *L);
/* Pushes a Lua function that calls the host's `call` with `context`. Protected; on success Lua owns
   `context` (it calls `release` when the function is collected); on failure the caller still does. */
int lunar_pushhostfunction(lua_State *L, void *context);

/* whereDefined(fn) -> "file.lua:12", the line where the Lua function fn is defined ("?" for
   anything else). A C function for lua_pushcfunction. */
int lunar_where_defined(lua_State *L);
/* whereCalled(level) -> "file.lua:12", the line running at `level` of the call stack (0: this
   function, 1: its caller), "?" where there is none. A C function for lua_pushcfunction. */
int lunar_where_called(lua_State *L);

/* ---- C extensions: another target's own C code, run inside the host's calls ---- */

/* Calls `f(context, value)` protected, where `context` is a light userdata and `value` the one
   value the push program describes (nil without one), under the message handler — and, when
   `budgeted`, the instruction budget and the wall-clock limit — like lunar_call. On success
   `*count` results are left on the stack; on failure one error object. */
int lunar_call_c(lunar_host *h, lua_State *L, lua_CFunction f, void *context, const unsigned char *program,
                 size_t length, int budgeted, int *count);
/* Trusted code (a module's own Lua that always terminates, and never runs a script's code: no
   metamethod of a script's value) runs outside the instruction budget: pause marks the running
   code untimed (the count hook, if the call is armed, comes off the running thread) and returns
   whether it was timed (what to resume); resume times it again (the hook back on an armed call)
   and returns whether it was already timed (1 also when the budget is off: a pause would change
   nothing). C code never meets the hook, so it need not pause for itself. An error raised while
   paused leaves the code untimed: the sandbox's pcall and xpcall time it again for a script that
   catches it, and the next call from the host does. Cannot raise. */
int lunar_budget_pause(lua_State *L);
int lunar_budget_resume(lua_State *L);

/* ---- errors ---- */

/* Pushes the traceback (or false) recorded by the last failed lunar_call, and clears it. Cannot raise. */
void lunar_take_traceback(lua_State *L);
/* Pushes the __tostring text (or false) of the last non-string error object, and clears it. */
void lunar_take_errortext(lua_State *L);
/* Whether the value at idx is the preallocated "not enough memory" message. Cannot raise. */
int lunar_is_memory_error(lua_State *L, int idx);

/* ---- coroutines ---- */

/* Creates a thread whose body is the function at registry[fref]; pushes nothing. Protected;
   `*thread` and `*ref` (the registry reference that keeps the thread alive) are set on success. */
int lunar_newthread(lua_State *L, int fref, lua_State **thread, int *ref);
/* Moves the top `nargs` values of L to `co` and resumes it under the instruction budget. With
   `raise_first`, the first argument is raised inside the coroutine where a host function yielded.
   `*count` is the number of yielded or returned values left on co (or 1: the error object on co). */
int lunar_resume(lua_State *L, lua_State *co, int nargs, int raise_first, int *count);
/* Traceback of a failed coroutine, pushed on L. Protected. */
int lunar_thread_traceback(lua_State *L, lua_State *co);
/* Records in the host where the failed coroutine stopped (first Lua frame). Cannot raise. */
void lunar_locate_thread_error(lua_State *co);
/* Closes a suspended or dead thread (to-be-closed variables run). Returns its status. */
int lunar_closethread(lua_State *L, lua_State *co);

/* ---- values ---- */

/* Whether the table at idx carries the "empty array" marker metatable. Cannot raise. */
int lunar_is_array_marked(lua_State *L, int idx);

/* ---- the sandbox's deterministic generator ---- */

/* Pushes `random` and `randomseed` functions sharing one generator seeded with `seed`, and returns
   the generator's state through `*state` (kept alive by the functions). Protected. */
int lunar_pushrandom(lua_State *L, uint64_t seed, void **state);
/* Reseeds a generator returned by lunar_pushrandom. Cannot raise. */
void lunar_random_seed(void *state, uint64_t seed);

/* ---- the sandbox's base functions ---- */

/* Pushes the table of C functions sandbox.lua builds environments with: `setmetatable` and
   `collectgarbage` (the sandbox's), `bind_load(env)` and `bind_print(host_print)` (which return
   the sandbox's load and print), `bind_write(host_print, io)` (the shims' io.write), `unmark` (the __close of require's guard). Protected. */
int lunar_push_sandbox_kit(lua_State *L);

/* ---- garbage collector (lua_gc is variadic, which Swift cannot call) ---- */

/* Bytes in use according to Lua. Cannot raise. */
size_t lunar_gc_count(lua_State *L);
/* A full collection; finalizer errors become warnings (Lua 5.4), never errors. */
void lunar_gc_collect(lua_State *L);

/* ---- push-program buffers (plain malloc memory, never Lua's allocator) ---- */

void *lunar_buffer_realloc(void *buffer, size_t size);
void lunar_buffer_free(void *buffer);

/* ---- threads ---- */

/* Whether the calling thread is the process's main thread: 1 or 0, without a system call; -1
   when unknown (the library was loaded after start-up, off the main thread). Cannot raise. */
int lunar_on_main_thread(void);
/* Whether the main actor was seen running on the main thread (it is not, under some test
   harnesses), and noting that it was. Atomic. Cannot raise. */
int lunar_main_actor_on_main_thread(void);
void lunar_note_main_actor_on_main_thread(void);

/* ---- macros Swift cannot see ---- */

static inline void lunar_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline int lunar_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int lunar_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int lunar_multret(void) { return LUA_MULTRET; }

#endif
