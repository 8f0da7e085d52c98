#include <math.h>
#include "journal.h"

/*
 * The state proxies' metamethods, in C: a reducer's reads and writes of `state`, journaled. The
 * root proxy (a fresh, empty table per call) has its own tight pair; nested proxies (tables of the
 * state, reached through the root) share another, and are made here too. The prelude is called
 * back only on the rare paths: a table read (a nested proxy to make) or assigned (`stored`).
 */

/* ---- proxies' metamethods ----
   upvalues: 1 st, 2 GEN key, 3 REAL key, 4 PATH key, 5 array marker metatable, 6 proxyOf,
             7 stale, 8 journal, 9 stored, 10 ROOT path marker, 11 childPath,
             12 the real table for a root proxy's metamethods (nil for nested proxies) */

#define METHOD_UPVALUES 12

static int is_root(lua_State *L) { return !lua_isnil(L, UP(12)); }

/* Whether the proxy at 1 belongs to the running call: a root proxy is the call's own (each call
   makes a new one, so one kept from an earlier call is refused); a nested one is one of the last
   made in this call, or carries the call's generation. */
static int live(lua_State *L) {
  journal_state *j = journal_of(L, UP(1));
  if (!j->active) return 0;
  if (is_root(L)) return lua_topointer(L, 1) == j->root;
  /* NB: the proxies made last in this call are recognized by address (any of them is the call's
     own: the ring is emptied at each call); others carry the generation they were made in. */
  const void *proxy = lua_topointer(L, 1);
  for (lua_Integer i = 0, n = j->made < 8 ? j->made : 8; i < n; i++)
    if (j->recent[i] == proxy) return 1;
  lua_pushvalue(L, UP(2));
  lua_rawget(L, 1);
  lua_Integer generation = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return generation == j->generation;
}

/* Raises the prelude's "state used outside its reducer call" error (which names the caller). */
static int raise_stale(lua_State *L) {
  lua_pushvalue(L, UP(7));
  lua_pushvalue(L, 2);
  lua_call(L, 1, 0);
  return 0; /* not reached: stale raises */
}

/* Pushes the real table behind the proxy at 1. */
static void push_real(lua_State *L) {
  if (is_root(L)) {
    lua_pushvalue(L, UP(12));
  } else {
    lua_pushvalue(L, UP(3));
    lua_rawget(L, 1);
  }
}

/* Pushes the path of the key at 2 inside the proxy at 1 (a new array of keys from the root). */
static void push_child_path(lua_State *L) {
  if (is_root(L)) {
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 1);
  } else {
    lua_pushvalue(L, UP(11));
    lua_pushvalue(L, UP(4));
    lua_rawget(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
  }
}

/* Refuses a value that is not data (a function, a coroutine, a userdata) before it is stored, so the
   error names the author's line (the assigning function, level 1). */
static void check_data(lua_State *L, int value) {
  int t = lua_type(L, value);
  if (t != LUA_TFUNCTION && t != LUA_TTHREAD && t != LUA_TUSERDATA && t != LUA_TLIGHTUSERDATA) return;
  luaL_where(L, 1);
  lua_pushfstring(L, "cannot store a %s in state", t == LUA_TTHREAD ? "coroutine" : lua_typename(L, t));
  if (lua_type(L, 2) == LUA_TSTRING) lua_pushfstring(L, " (field '%s')", lua_tostring(L, 2));
  else lua_pushliteral(L, "");
  lua_pushliteral(L, ": state holds data only (nil, booleans, numbers, strings and tables); "
                     "keep functions in the feature's module");
  lua_concat(L, 4);
  lua_error(L);
}

/* Counts a write at a path of at most one key; the first of a composed feature's call sets
   journal[0]. */
static void mark_shallow(lua_State *L, journal_state *j, int journal) {
  if (j->shallow++ == 0 && j->routing) {
    lua_pushboolean(L, 1);
    lua_rawseti(L, journal, 0);
    j->flagged = 1;
  }
}

static int proxy_index(lua_State *L) {
  if (!live(L)) return raise_stale(L);
  lua_settop(L, 2);
  push_real(L); /* 3 */
  lua_pushvalue(L, 2);
  if (lua_rawget(L, 3) != LUA_TTABLE) return 1; /* scalars first: most reads are fields */
  if (lua_getmetatable(L, 4)) {
    int marked = lua_rawequal(L, -1, UP(5));
    lua_pop(L, 1);
    if (!marked) return 1; /* not state data (a proxy kept by mistake, a foreign object) */
  }
  /* proxyOf(value, path, real) */
  lua_pushvalue(L, UP(6));
  lua_pushvalue(L, 4);
  push_child_path(L);
  lua_pushvalue(L, 3);
  lua_call(L, 3, 1);
  return 1;
}

static int proxy_newindex(lua_State *L) {
  if (!live(L)) return raise_stale(L);
  lua_settop(L, 3);
  int keytype = lua_type(L, 2);
  if (keytype == LUA_TNIL || (keytype == LUA_TNUMBER && !lua_isinteger(L, 2) && isnan(lua_tonumber(L, 2))))
    return luaL_error(L, "state keys cannot be nil or NaN");
  check_data(L, 3);
  push_real(L); /* 4 */
  if (lua_type(L, 3) == LUA_TTABLE) {
    /* stored(value, real): unwraps proxies, copies tables already in the state */
    lua_pushvalue(L, UP(9));
    lua_pushvalue(L, 3);
    lua_pushvalue(L, 4);
    lua_call(L, 2, 1);
    lua_replace(L, 3);
  }
  journal_state *j = journal_of(L, UP(1));
  lua_Integer n = j->count;
  int journal = UP(8);
  lua_pushvalue(L, 4);
  lua_rawseti(L, journal, n + 1);
  lua_pushvalue(L, 2);
  lua_rawseti(L, journal, n + 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, 4);
  lua_rawseti(L, journal, n + 3);
  int shallow = 1;
  if (is_root(L)) {
    lua_pushvalue(L, UP(10));
  } else {
    lua_pushvalue(L, UP(4));
    shallow = lua_rawget(L, 1) != LUA_TTABLE || lua_rawlen(L, -1) <= 1;
  }
  if (shallow) mark_shallow(L, j, journal);
  lua_rawseti(L, journal, n + 4);
  /* NB: counted only once the entry is whole, so a memory error above leaves no half entry. */
  j->count = n + 4;
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, 4);
  return 0;
}

/* The root proxy's metamethods: the hottest code of a reducer call (most reads and writes are
   fields of the root), so they read their upvalues in place and call the API as little as they can.
   The VM always passes (proxy, key[, value]); a script calling them by hand with fewer arguments
   reads nils, which the checks below refuse. */

static int root_index(lua_State *L) {
  journal_state *j = journal_of(L, UP(1));
  if (!j->active || lua_topointer(L, 1) != j->root) return raise_stale(L);
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, UP(12)) != LUA_TTABLE) return 1; /* 3 */
  if (lua_getmetatable(L, 3)) {
    int marked = lua_rawequal(L, -1, UP(5));
    lua_pop(L, 1);
    if (!marked) return 1;
  }
  /* proxyOf(value, {key}, real) */
  lua_pushvalue(L, UP(6));
  lua_pushvalue(L, 3);
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, UP(12));
  lua_call(L, 3, 1);
  return 1;
}

static int root_newindex(lua_State *L) {
  journal_state *j = journal_of(L, UP(1));
  if (!j->active || lua_topointer(L, 1) != j->root) return raise_stale(L);
  lua_settop(L, 3);
  int keytype = lua_type(L, 2);
  if (keytype != LUA_TSTRING &&
      (keytype == LUA_TNIL || (keytype == LUA_TNUMBER && !lua_isinteger(L, 2) && isnan(lua_tonumber(L, 2)))))
    return luaL_error(L, "state keys cannot be nil or NaN");
  check_data(L, 3);
  if (lua_type(L, 3) == LUA_TTABLE) {
    lua_pushvalue(L, UP(9)); /* stored(value, real) */
    lua_pushvalue(L, 3);
    lua_pushvalue(L, UP(12));
    lua_call(L, 2, 1);
    lua_replace(L, 3);
  }
  lua_Integer n = j->count;
  int journal = UP(8);
  lua_pushvalue(L, UP(12));
  lua_rawseti(L, journal, n + 1);
  lua_pushvalue(L, 2);
  lua_rawseti(L, journal, n + 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, UP(12));
  lua_rawseti(L, journal, n + 3);
  mark_shallow(L, j, journal);
  lua_pushvalue(L, UP(10));
  lua_rawseti(L, journal, n + 4);
  /* NB: counted only once the entry is whole, so a memory error above leaves no half entry. */
  j->count = n + 4;
  lua_rawset(L, UP(12)); /* key and value are 2 and 3, the top two */
  return 0;
}

/* methods(st, GEN, REAL, PATH, arrayMarker, proxyOf, stale, journal, stored, ROOT, childPath
   [, real]) -> __index, __newindex: for the root proxies of `real`, or for nested proxies
   (which carry their table and path under REAL and PATH) when `real` is nil. */
int lunar_journal_methods(lua_State *L) {
  luaL_checkudata(L, 1, "lunar.journalstate");
  lua_settop(L, METHOD_UPVALUES);
  int root = !lua_isnil(L, METHOD_UPVALUES);
  for (int i = 1; i <= METHOD_UPVALUES; i++) lua_pushvalue(L, i);
  lua_pushcclosure(L, root ? root_index : proxy_index, METHOD_UPVALUES);
  for (int i = 1; i <= METHOD_UPVALUES; i++) lua_pushvalue(L, i);
  lua_pushcclosure(L, root ? root_newindex : proxy_newindex, METHOD_UPVALUES);
  return 2;
}

/* maker(st, REAL, PATH, GEN, PARENT, metatable) -> make(real, path, parent): a nested proxy
   { [REAL] = real, [PATH] = path, [GEN] = the call's generation, [PARENT] = parent } */
static int make_proxy(lua_State *L) {
  lua_settop(L, 3);
  journal_state *j = journal_of(L, UP(1));
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, UP(2));
  lua_pushvalue(L, 1);
  lua_rawset(L, 4);
  lua_pushvalue(L, UP(3));
  lua_pushvalue(L, 2);
  lua_rawset(L, 4);
  lua_pushvalue(L, UP(4));
  lua_pushinteger(L, j->generation);
  lua_rawset(L, 4);
  lua_pushvalue(L, UP(5));
  lua_pushvalue(L, 3);
  lua_rawset(L, 4);
  lua_pushvalue(L, UP(6));
  lua_setmetatable(L, 4);
  if (j->active) j->recent[j->made++ & 7] = lua_topointer(L, 4);
  return 1;
}

int lunar_journal_proxy_maker(lua_State *L) {
  luaL_checkudata(L, 1, "lunar.journalstate");
  lua_settop(L, 6);
  lua_pushcclosure(L, make_proxy, 6);
  return 1;
}

/* rootReal(v) -> the state table behind a root proxy; nil for anything else (nested proxies carry
   theirs under REAL) */
int lunar_journal_root_real(lua_State *L) {
  lua_settop(L, 1);
  if (lua_type(L, 1) != LUA_TTABLE || !lua_getmetatable(L, 1)) return 0;
  /* NB: raw, so that a script's own metatable (one with a metatable of its own) runs nothing */
  lua_pushliteral(L, "__index");
  if (lua_rawget(L, 2) != LUA_TFUNCTION || lua_tocfunction(L, 3) != root_index) return 0;
  if (lua_getupvalue(L, 3, 12) == NULL) return 0;
  return 1;
}
