#include <math.h>
#include "internal.h"

/*
 * The hot path of a Lua feature's action, in C: the reducer call and the root state proxy's
 * metamethods. The Lua prelude (lunar_host.lua) owns the rest of the journal machinery — nested
 * proxies, value semantics, rollback, change lists — and shares its scalars with this file through
 * one table of integer slots (see the JOURNAL_* indexes below, mirrored in the prelude).
 *
 * Why C: every instruction of a reducer call runs under the count hook that enforces the
 * instruction budget, so Lua metamethods cost twice (their own work, and a hook trap per
 * instruction). C functions run no VM instructions. Everything here runs inside the protected
 * call of lunar_call: raising (luaL_error, memory errors) is allowed, and never crosses Swift.
 */

/* Slots of the shared scalar table (the prelude's `st`). */
enum {
  SLOT_ACTIVE = 1,     /* boolean: a reducer call is running */
  SLOT_GENERATION = 2, /* integer: the current call's number (stale proxies carry an older one) */
  SLOT_COUNT = 3,      /* integer: journal entries in use (4 per write) */
  SLOT_PENDING = 4,    /* integer: effect handles registered by the current call */
  SLOT_SHUFFLED = 5,   /* integer: tables whose elements moved during the call */
  SLOT_PROXIES = 6     /* integer: nested proxies made during the call */
};

static lua_Integer slot_integer(lua_State *L, int st, int slot) {
  lua_rawgeti(L, st, slot);
  lua_Integer v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

static void set_slot_integer(lua_State *L, int st, int slot, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_rawseti(L, st, slot);
}

/* ---- the root proxy's metamethods ----
   upvalues: 1 real table, 2 st, 3 GEN key, 4 array marker metatable, 5 proxyOf, 6 stale,
             7 journal, 8 stored, 9 ROOT path marker */

#define UP(i) lua_upvalueindex(i)

/* Whether the proxy at idx belongs to the running call. */
static int live(lua_State *L, int proxy) {
  lua_rawgeti(L, UP(2), SLOT_ACTIVE);
  int active = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (!active) return 0;
  lua_pushvalue(L, UP(3));
  lua_rawget(L, proxy);
  lua_Integer generation = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return generation == slot_integer(L, UP(2), SLOT_GENERATION);
}

/* Raises the prelude's "state used outside its reducer call" error (which names the caller). */
static int raise_stale(lua_State *L, int key) {
  lua_pushvalue(L, UP(6));
  lua_pushvalue(L, key);
  lua_call(L, 1, 0);
  return 0; /* not reached: stale raises */
}

static int root_index(lua_State *L) {
  if (!live(L, 1)) return raise_stale(L, 2);
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, UP(1)) != LUA_TTABLE) return 1; /* scalars first: most reads are fields */
  if (lua_getmetatable(L, 3)) {
    int marked = lua_rawequal(L, -1, UP(4));
    lua_pop(L, 1);
    if (!marked) return 1; /* not state data (a proxy kept by mistake, a foreign object) */
  }
  /* proxyOf(value, { key }, real) */
  lua_pushvalue(L, UP(5));
  lua_pushvalue(L, 3);
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, UP(1));
  lua_call(L, 3, 1);
  return 1;
}

static int root_newindex(lua_State *L) {
  if (!live(L, 1)) return raise_stale(L, 2);
  lua_settop(L, 3);
  int keytype = lua_type(L, 2);
  if (keytype == LUA_TNIL || (keytype == LUA_TNUMBER && !lua_isinteger(L, 2) && isnan(lua_tonumber(L, 2))))
    return luaL_error(L, "state keys cannot be nil or NaN");
  if (lua_type(L, 3) == LUA_TTABLE) {
    /* stored(value, real): unwraps proxies, copies tables already in the state */
    lua_pushvalue(L, UP(8));
    lua_pushvalue(L, 3);
    lua_pushvalue(L, UP(1));
    lua_call(L, 2, 1);
    lua_replace(L, 3);
  }
  lua_Integer n = slot_integer(L, UP(2), SLOT_COUNT);
  int journal = UP(7);
  lua_pushvalue(L, UP(1));
  lua_rawseti(L, journal, n + 1);
  lua_pushvalue(L, 2);
  lua_rawseti(L, journal, n + 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, UP(1));
  lua_rawseti(L, journal, n + 3);
  lua_pushvalue(L, UP(9));
  lua_rawseti(L, journal, n + 4);
  set_slot_integer(L, UP(2), SLOT_COUNT, n + 4);
  lua_rawset(L, UP(1)); /* real[key] = value: key and value are at 2 and 3, the only ones left */
  return 0;
}

/* rootMethods(real, st, GEN, arrayMarker, proxyOf, stale, journal, stored, ROOT)
   -> __index, __newindex for the root proxies of `real`. */
static int root_methods(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 9);
  for (int i = 1; i <= 9; i++) lua_pushvalue(L, i);
  lua_pushcclosure(L, root_index, 9);
  for (int i = 1; i <= 9; i++) lua_pushvalue(L, i);
  lua_pushcclosure(L, root_newindex, 9);
  return 2;
}

/* ---- the reducer call ----
   upvalues: 1 st, 2 journal, 3 rootMetatables (weak, real -> metatable), 4 rootMetatableOf,
             5 commit, 6 endCall, 7 finish, 8 REAL key, 9 GEN key, 10 ROOT path marker

   reduce(fn, state, action, deps) -> what the host reads: nothing (no change, no effect);
   nil, 1, path, key, isNil, value (one write, no effect); or finish(result)'s results. */
static int reduce_call(lua_State *L) {
  lua_settop(L, 4);
  int st = UP(1);
  if (slot_integer(L, st, SLOT_PENDING) > 0 || slot_integer(L, st, SLOT_COUNT) > 64) {
    lua_pushvalue(L, UP(5));
    lua_call(L, 0, 0);
  } else {
    set_slot_integer(L, st, SLOT_COUNT, 0);
  }
  lua_Integer generation = slot_integer(L, st, SLOT_GENERATION) + 1;
  set_slot_integer(L, st, SLOT_GENERATION, generation);
  lua_pushboolean(L, 1);
  lua_rawseti(L, st, SLOT_ACTIVE);

  lua_pushvalue(L, 1); /* 5: the reducer */
  lua_createtable(L, 0, 2); /* 6: the root proxy { [REAL] = state, [GEN] = generation } */
  lua_pushvalue(L, UP(8));
  lua_pushvalue(L, 2);
  lua_rawset(L, 6);
  lua_pushvalue(L, UP(9));
  lua_pushinteger(L, generation);
  lua_rawset(L, 6);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, UP(3)) == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushvalue(L, UP(4));
    lua_pushvalue(L, 2);
    lua_call(L, 1, 1);
  }
  lua_setmetatable(L, 6);
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  lua_call(L, 3, 1); /* 5: the result */

  if (slot_integer(L, st, SLOT_SHUFFLED) > 0 || slot_integer(L, st, SLOT_PROXIES) > 0) {
    lua_pushvalue(L, UP(6));
    lua_call(L, 0, 0);
  } else {
    lua_pushboolean(L, 0);
    lua_rawseti(L, st, SLOT_ACTIVE);
  }

  if (lua_isnil(L, 5)) {
    lua_Integer count = slot_integer(L, st, SLOT_COUNT);
    if (count == 0) return 0;
    if (count == 4) {
      /* one write, the most common action: nil, 1, path, key, isNil, value */
      int journal = UP(2);
      lua_pushnil(L);
      lua_pushinteger(L, 1);
      lua_rawgeti(L, journal, 4); /* path */
      if (lua_rawequal(L, -1, UP(10))) {
        lua_pop(L, 1);
        lua_pushinteger(L, 0);
      }
      lua_rawgeti(L, journal, 2); /* key */
      lua_rawgeti(L, journal, 1); /* the table written */
      lua_pushvalue(L, -2);
      int isnil = lua_rawget(L, -2) == LUA_TNIL;
      lua_remove(L, -2);
      if (isnil) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
        lua_pushboolean(L, 0);
      } else {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
      }
      return 6;
    }
  }
  int base = lua_gettop(L);
  lua_pushvalue(L, UP(7));
  lua_pushvalue(L, 5);
  lua_call(L, 1, LUA_MULTRET);
  return lua_gettop(L) - base;
}

/* reducer(st, journal, rootMetatables, rootMetatableOf, commit, endCall, finish, REAL, GEN, ROOT)
   -> the reduce function above. */
static int make_reducer(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 10);
  lua_pushcclosure(L, reduce_call, 10);
  return 1;
}

static int journal_library_worker(lua_State *L) {
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, root_methods);
  lua_setfield(L, -2, "rootMethods");
  lua_pushcfunction(L, make_reducer);
  lua_setfield(L, -2, "reducer");
  return 1;
}

int lunar_push_journal_library(lua_State *L) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lua_pushcfunction(L, journal_library_worker);
  return lua_pcall(L, 0, 1, 0);
}
