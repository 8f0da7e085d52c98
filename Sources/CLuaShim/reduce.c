#include "internal.h"

/*
 * The host's entry into a bound reducer (journal.c's `bind`), for one action: the whole call in one
 * protected call. The bound reducer fills `out` with its commonest outcomes (nothing changed; one
 * scalar field set), so that the host reads a struct instead of walking results through the API.
 *
 * The action travels as a push program: the bound reducer decodes it inside the protected call
 * (making its table may fail for memory), which saves the separate protected push of lunar_call.
 */

int lunar_reduce(lunar_host *h, lua_State *L, int bound, int state, const unsigned char *action,
                 size_t length, lunar_reduced *out) {
  int top = lua_gettop(L);
  int handler = 1;
  if (L != h->main) {
    if (!lua_checkstack(L, 4)) return LUA_ERRMEM;
    lua_pushcfunction(L, lunar_msgh);
    handler = top + 1;
  } else if (!lua_checkstack(L, 3)) {
    return LUA_ERRMEM;
  }
  lunar_reduce_job job = {{action, action + length}, out};
  out->kind = LUNAR_REDUCED_OTHER;
  /* NB: rawgeti and a light userdata never allocate: nothing here needs protection. */
  lua_rawgeti(L, LUA_REGISTRYINDEX, bound);
  lua_rawgeti(L, LUA_REGISTRYINDEX, state);
  lua_pushlightuserdata(L, &job);
  lunar_budget_enter(h);
  lunar_ensure_hook_of(h, L);
  int status = lua_pcall(L, 2, LUA_MULTRET, handler);
  status = lunar_budget_leave(h, status);
  if (handler != 1) {
    lua_rotate(L, handler, -1); /* remove the handler: rotate and pop never allocate */
    lua_pop(L, 1);
  }
  out->count = lua_gettop(L) - top;
  return status;
}
