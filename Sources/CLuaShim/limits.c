#include <stdio.h>
#include <time.h>
#include "internal.h"

/*
 * The limits of a call into Lua: an instruction budget, a wall-clock deadline and a CPU-time limit
 * of the calling thread. A call starts without any hook, at stock speed; once the watchdog
 * (watchdog.c) sees it running for LUNAR_WATCH_PERIOD, it arms a count hook that fires every
 * thousand VM instructions, counts the budget and reads the clock (the CPU time at most every
 * 10 ms: reading it is a system call). lunar_charge counts the work done inside C library
 * functions, which runs no VM instruction the hook could see, from the call's start.
 */

/* ---- instruction budget and wall-clock limit ---- */

int64_t lunar_now(void) {
  struct timespec t;
  /* NB: the coarse clock costs a few nanoseconds and is precise to a few milliseconds, plenty for
     a limit counted in tenths of seconds; it is read every thousand instructions. */
  clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t lunar_thread_cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Raises the error of what ran out, at `level` (0 inside a hook: the running Lua function; 1 in a
   C function: its Lua caller). From here on the hook fires on every instruction, so a script that
   catches the error gets another one at its next instruction, and the error reaches the host. */
static int raise_spent(lua_State *L, lunar_host *h, int level) {
  if (lua_gethookcount(L) != 1) lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, 1);
  luaL_where(L, level);
  if (h->exhausted == LUNAR_ERRTIME) {
    lua_Number seconds = (lua_Number)(h->cpu_spent ? h->cpu_limit : h->time_limit) / 1e9;
    char text[64];
    snprintf(text, sizeof text, h->cpu_spent ? "CPU time limit exceeded (%g s per call)" : "time limit exceeded (%g s per call)", (double)seconds);
    lua_pushstring(L, text);
  } else {
    lua_pushfstring(L, "instruction limit exceeded (%I instructions per call)", (LUAI_UACINT)h->instruction_limit);
  }
  lua_concat(L, 2);
  return lua_error(L);
}

/* Whether the wall-clock deadline has passed, or the thread's CPU time its limit; marks the call
   spent if so. */
static int past_deadline(lunar_host *h) {
  if (h->time_limit <= 0 && h->cpu_limit <= 0) return 0;
  int64_t now = lunar_now();
  if (h->time_limit > 0 && now >= h->deadline) {
    h->cpu_spent = 0;
    h->exhausted = LUNAR_ERRTIME;
    return 1;
  }
  if (h->cpu_limit <= 0 || now < h->next_cpu_check) return 0;
  h->next_cpu_check = now + LUNAR_CPU_CHECK_EVERY;
  int64_t cpu = lunar_thread_cpu_now();
  if (!h->cpu_known) {
    /* The first reading, LUNAR_CPU_CHECK_EVERY or more into the call: that much counts as spent
       (not the whole wall-clock time so far: the call may have waited in a host function). */
    h->cpu_known = 1;
    h->cpu_deadline = cpu + h->cpu_limit - LUNAR_CPU_CHECK_EVERY;
  }
  if (cpu < h->cpu_deadline) return 0;
  h->cpu_spent = 1;
  h->exhausted = LUNAR_ERRTIME;
  return 1;
}

/* Fires every `hook_interval` instructions on the threads of an armed call (coroutines a script
   makes always carry it). The budget is shared by all threads, so a script cannot escape it by
   spreading work over coroutines. Each time it fires it also reads the clock. Trusted code
   (lunar_budget_pause) is timed but not counted. */
void lunar_count_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  lunar_host *h = lunar_host_of(L);
  if (!lunar_budget_on(h)) {
    lua_sethook(L, NULL, 0, 0); /* the limits were lifted after this thread was created */
    return;
  }
  if (h->depth == 0) return; /* finalizers during a host push: not part of any call */
  if (!h->exhausted) {
    if (lua_gethookcount(L) != h->hook_interval)
      lua_sethook(L, lunar_count_hook, LUA_MASKCOUNT, h->hook_interval); /* left over from an old exhaustion */
    if (h->instruction_limit > 0 && !h->untimed) {
      h->remaining -= h->hook_interval;
      if (h->remaining <= 0) h->exhausted = LUNAR_ERRBUDGET;
    }
    if (!h->exhausted && !past_deadline(h)) return;
  }
  /* NB: inside a hook, level 0 is the Lua function being run, so the message names its line. */
  raise_spent(L, h, 0);
}

void lunar_charge(lua_State *L, int64_t cost) {
  lunar_host *h = lunar_host_of(L);
  if (h->depth == 0 || !lunar_budget_on(h)) return;
  if (!h->exhausted) {
    if (h->instruction_limit > 0) {
      h->remaining -= cost;
      if (h->remaining <= 0) h->exhausted = LUNAR_ERRBUDGET;
    }
    if (!h->exhausted && (h->time_limit > 0 || h->cpu_limit > 0)) {
      h->until_clock -= cost;
      if (h->until_clock > 0) return;
      h->until_clock = LUNAR_CLOCK_EVERY;
      if (!past_deadline(h)) return;
    } else if (!h->exhausted) {
      return;
    }
  }
  raise_spent(L, h, 1);
}

void lunar_check_deadline(lua_State *L) {
  lunar_host *h = lunar_host_of(L);
  if (h->depth == 0 || !lunar_budget_on(h)) return;
  if (h->exhausted || past_deadline(h)) raise_spent(L, h, 1);
}

void lunar_set_limits(lua_State *L, int64_t instructions, int64_t nanoseconds, int64_t cpu_nanoseconds) {
  lunar_host *h = lunar_host_of(L);
  h->instruction_limit = instructions > 0 ? instructions : 0;
  h->time_limit = nanoseconds > 0 ? nanoseconds : 0;
  h->cpu_limit = cpu_nanoseconds > 0 ? cpu_nanoseconds : 0;
  /* NB: with only a time limit the hook still fires every thousand instructions, to read the clock. */
  h->hook_interval = !lunar_budget_on(h) ? 0 : (instructions > 0 && instructions < 1000 ? (int)instructions : 1000);
  h->arm_at_entry = instructions > 0 && instructions < LUNAR_ARM_BUDGET;
  /* NB: the hook is set at each call's start as the call wants it (lunar_budget_enter). */
  if (!lunar_budget_on(h)) lua_sethook(L, NULL, 0, 0);
}

/* ---- pcall and xpcall ----
   Lua runs a message handler with hooks off when the error was raised by a hook: a handler that
   loops would never be stopped. The sandbox's xpcall wraps every handler in one that steps aside
   (returns the error as it is) once the call is spent, so only a script's handlers for its own
   errors run, and they run under the hook.
   The host's own Lua runs outside the budget (lunar_budget_pause) and can raise there: both put
   the budget back as it was when the script called them, once they catch an error, so that a
   script never goes on untimed after catching one of the host's errors. */

/* Whether the script's code was timed (not the host's trusted code), kept in a continuation's
   context with the stack base. */
static lua_KContext context_of(lua_State *L, int base) {
  return (lua_KContext)base * 2 + !lunar_host_of(L)->untimed;
}

static void caught(lua_State *L, lua_KContext context) {
  if (context % 2 == 1) {
    lunar_host_of(L)->untimed = 0;
    lunar_ensure_hook(L);
  }
}

static int guarded_handler(lua_State *L) {
  if (lunar_spent(lunar_host_of(L))) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static int finish_pcall(lua_State *L, int status, lua_KContext context) {
  if (status != LUA_OK && status != LUA_YIELD) {
    caught(L, context);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)(context / 2);
}

/* pcall(f, ...) -> true, f's results | false, the error */
static int limited_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1); /* the first result when f succeeds */
  lua_insert(L, 1);
  lua_KContext context = context_of(L, 0);
  int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, context, finish_pcall);
  return finish_pcall(L, status, context);
}

/* xpcall(f, handler, ...) -> true, f's results | false, the handler's result */
static int limited_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, guarded_handler, 1);
  lua_replace(L, 2);
  lua_pushboolean(L, 1);  /* the first result when f succeeds */
  lua_pushvalue(L, 1);    /* f */
  lua_rotate(L, 3, 2);    /* true and f go below f's arguments: handler, true, f, args… */
  lua_KContext context = context_of(L, 2);
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, context, finish_pcall);
  return finish_pcall(L, status, context);
}

void lunar_open_limited_base(lua_State *L) {
  lua_pushcfunction(L, limited_pcall);
  lua_setglobal(L, "pcall");
  lua_pushcfunction(L, limited_xpcall);
  lua_setglobal(L, "xpcall");
}
