#include "internal.h"

/*
 * A coroutine a script makes carries the count hook from its first instruction. The watchdog arms
 * a long call by setting the hook of the threads the host entered (watch_states); a coroutine
 * resumed from Lua is none of those, and one that loops would never be armed. Coroutines made by
 * scripts are rare on the hot path, so they pay the hook's cost from the start.
 */

static void give_hook(lunar_host *h, lua_State *co) {
  if (lunar_budget_on(h)) lua_sethook(co, lunar_count_hook, LUA_MASKCOUNT, h->exhausted ? 1 : h->hook_interval);
}

/* coroutine.create(f) -> a thread running f */
static int hooked_create(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  give_hook(lunar_host_of(L), co);
  return 1;
}

/* coroutine.wrap(f) -> Lua's own wrap over a thread that carries the hook: the thread it makes
   inherits the hook of the running one, set for that moment. Upvalue: Lua's wrap. */
static int hooked_wrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lunar_host *h = lunar_host_of(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  if (!lunar_budget_on(h) || lua_gethook(L) == lunar_count_hook) {
    /* NB: a thread that has the hook passes it on as it is; setting it again would restart its
       count, and a loop making a coroutine every few hundred instructions would never be counted. */
    lua_call(L, 1, 1);
    return 1;
  }
  lua_Hook hook = lua_gethook(L);
  int mask = lua_gethookmask(L), count = lua_gethookcount(L);
  give_hook(h, L);
  lua_call(L, 1, 1); /* NB: raises only for memory, leaving the hook on: counted, never lost */
  lua_sethook(L, hook, mask, count);
  /* NB: the watchdog may have armed the call meanwhile; its hook must stay. */
  lunar_ensure_hook_of(h, L);
  return 1;
}

void lunar_open_hooked_coroutines(lua_State *L) {
  lua_getglobal(L, LUA_COLIBNAME);
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  lua_pushcfunction(L, hooked_create);
  lua_setfield(L, -2, "create");
  lua_getfield(L, -1, "wrap");
  lua_pushcclosure(L, hooked_wrap, 1);
  lua_setfield(L, -2, "wrap");
  lua_pop(L, 1);
}
