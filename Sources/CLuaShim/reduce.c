#include "internal.h"

/*
 * The host's entry into a bound reducer (journal.c's `bind`), for one action: the whole call in one
 * protected call, and its commonest outcomes read here, in C, so that the host reads a struct
 * instead of walking the results through the API.
 *
 * The action travels as a push program: the bound reducer decodes it inside the protected call
 * (making its table may fail for memory), which saves the separate protected push of lunar_call.
 */

static int is_root_path(lua_State *L, int idx) {
  return lua_isinteger(L, idx) && lua_tointeger(L, idx) == 0;
}

/* The one-write shape of reduce_with: nil, 1, path, key, false, value, with a string key and a
   scalar value. */
static void classify(lua_State *L, int base, int count, lunar_reduced *out) {
  out->kind = count == 0 ? LUNAR_REDUCED_NOTHING : LUNAR_REDUCED_OTHER;
  if (count != 6 || !lua_isnil(L, base + 1) || !lua_isinteger(L, base + 2) || lua_tointeger(L, base + 2) != 1)
    return;
  if (lua_type(L, base + 4) != LUA_TSTRING || lua_type(L, base + 5) != LUA_TBOOLEAN || lua_toboolean(L, base + 5))
    return;
  int value = base + 6;
  out->value_type = lua_type(L, value);
  switch (out->value_type) {
    case LUA_TBOOLEAN: out->boolean = lua_toboolean(L, value); break;
    case LUA_TNUMBER:
      out->is_integer = lua_isinteger(L, value);
      if (out->is_integer) out->integer = lua_tointeger(L, value);
      else out->number = lua_tonumber(L, value);
      break;
    case LUA_TSTRING: out->string = lua_tolstring(L, value, &out->string_length); break;
    default: return; /* a table: the general path reads it */
  }
  if (is_root_path(L, base + 3)) out->kind = LUNAR_REDUCED_ROOT_FIELD;
  else if (lua_type(L, base + 3) == LUA_TTABLE) out->kind = LUNAR_REDUCED_FIELD;
  else return;
  out->key = lua_tolstring(L, base + 4, &out->key_length);
}

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
  lunar_reader reader = {action, action + length};
  /* NB: rawgeti and a light userdata never allocate: nothing here needs protection. */
  lua_rawgeti(L, LUA_REGISTRYINDEX, bound);
  lua_rawgeti(L, LUA_REGISTRYINDEX, state);
  lua_pushlightuserdata(L, &reader);
  lunar_budget_enter(h);
  lunar_ensure_hook_of(h, L);
  int status = lua_pcall(L, 2, LUA_MULTRET, handler);
  status = lunar_budget_leave(h, status);
  if (handler != 1) {
    lua_rotate(L, handler, -1); /* remove the handler: rotate and pop never allocate */
    lua_pop(L, 1);
  }
  out->count = lua_gettop(L) - top;
  if (status == LUA_OK) classify(L, top, out->count, out);
  return status;
}
