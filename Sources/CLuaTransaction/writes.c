#include <math.h>
#include "transaction.h"

/*
 * The writes of a reducer through its state proxies (proxies.c): each is checked (state holds
 * data JSON can write), journaled (the entry's layout: CLuaTransaction.h) and then made. A table
 * stored is copied, so a table a script still holds can never be written behind the journal's
 * back.
 */

static const char *key_text(lua_State *L, int key) {
  if (lua_type(L, key) == LUA_TSTRING) return lua_pushfstring(L, "\"%s\"", lua_tostring(L, key));
  if (lua_type(L, key) == LUA_TNUMBER) {
    lua_pushvalue(L, key);
    return lua_tostring(L, -1); /* a copy: the key itself stays a number */
  }
  return luaL_typename(L, key);
}

#define DATA_ONLY "state holds data only (nil, booleans, numbers, strings and tables); keep functions in the feature's module"

static const char *kind_of(lua_State *L, int value) {
  int type = lua_type(L, value);
  return type == LUA_TTHREAD ? "coroutine" : lua_typename(L, type);
}

/* Refuses a value that is not data, stored at `key` (the error names the author's line). */
static int refuse_value(lua_State *L, int key, int value) {
  if (lua_type(L, key) == LUA_TSTRING)
    return luaL_error(L, "cannot store a %s in state (field '%s'): " DATA_ONLY, kind_of(L, value), lua_tostring(L, key));
  return luaL_error(L, "cannot store a %s in state: " DATA_ONLY, kind_of(L, value));
}

/* The same for a value inside a table being stored, at `key` of that table. */
static int refuse_inner(lua_State *L, int key, int value) {
  return luaL_error(L, "cannot store a %s in state (at %s of an assigned table): " DATA_ONLY, kind_of(L, value),
                    key_text(L, key));
}

static int is_marker(lua_State *L, int context, int mt) {
  lua_getiuservalue(L, context, UV_MARKER);
  int marked = lua_rawequal(L, -1, mt);
  lua_pop(L, 1);
  return marked;
}

/* Pushes a copy of the table at `src` for the state: proxies are unwrapped, nested tables copied,
   a table with a metatable (but LuaBridge's empty-array marker) refused, cycles refused. `visiting`
   is the slot of the set of tables being copied (nil until a nested table appears); `w` is where
   the whole is stored, for messages, and gets the keys down to the value being copied. Numbers and
   strings JSON cannot write are refused (values.c), so are float keys. */
static void push_copy(lua_State *L, lunar_txn *t, int context, int src, int depth, int visiting, txn_where *w,
                      int *inner) {
  int key = w->key;
  if (depth > 200) luaL_error(L, "state nested too deeply (over 200 levels)");
  luaL_checkstack(L, 8, "state nested too deeply");
  int marked = 0;
  int top = lua_gettop(L);
  int mt = txn_proxy_metatable(L, src);
  if (mt != 0) {
    if (!txn_push_real(L, t, context, mt, src)) txn_stale(L, context, key);
    src = lua_gettop(L);
    /* NB: a list copied from the state (`state.b = state.a`) keeps its array mark. */
    if (lua_getmetatable(L, src)) {
      marked = is_marker(L, context, lua_gettop(L));
      lua_pop(L, 1);
    }
  } else if (lua_getmetatable(L, src)) {
    marked = is_marker(L, context, lua_gettop(L));
    if (!marked)
      luaL_error(L, "state holds plain tables only: the table stored at %s (or one inside it) has a metatable; "
                 "store its data instead", key_text(L, key));
    lua_pop(L, 1);
  }
  if (!lua_isnil(L, visiting)) {
    lua_pushvalue(L, src);
    if (lua_rawget(L, visiting) != LUA_TNIL)
      luaL_error(L, "state cannot hold a cycle: the table stored at %s contains itself", key_text(L, key));
    lua_pop(L, 1);
    lua_pushvalue(L, src);
    lua_pushboolean(L, 1);
    lua_rawset(L, visiting);
  }
  lua_createtable(L, (int)lua_rawlen(L, src), 0);
  int copy = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, src)) {
    int kt = lua_type(L, -2);
    inner[depth] = lua_gettop(L) - 1;
    w->depth = depth + 1;
    if (kt == LUA_TSTRING) {
      size_t n;
      const char *s = lua_tolstring(L, -2, &n);
      ptrdiff_t bad = txn_utf8_invalid(s, n);
      if (bad >= 0) txn_refuse_key(L, -2, bad, w);
      /* NB: a pair of twins has a string side: checking the string keys finds every pair. */
      if (txn_key_has_twin(L, src, -2)) txn_refuse_twin_key(L, -2, w);
    } else if (kt == LUA_TNUMBER) {
      if (!lua_isinteger(L, -2)) txn_refuse_float_key(L, -2, w);
    } else {
      luaL_error(L, "state keys are strings or numbers: the table stored at %s has a %s key", key_text(L, key),
                 luaL_typename(L, -2));
    }
    switch (lua_type(L, -1)) {
      case LUA_TTABLE:
        if (lua_isnil(L, visiting)) {
          /* NB: the set is made only once a nested table appears (most stored tables are rows of
             scalars); the table being copied at depth 0 is then the first one in it. */
          lua_newtable(L);
          lua_pushvalue(L, src);
          lua_pushboolean(L, 1);
          lua_rawset(L, -3);
          lua_replace(L, visiting);
        }
        push_copy(L, t, context, lua_gettop(L), depth + 1, visiting, w, inner);
        lua_replace(L, -2);
        break;
      case LUA_TNUMBER:
        if (!lua_isinteger(L, -1) && !isfinite(lua_tonumber(L, -1))) txn_refuse_number(L, -1, w);
        break;
      case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, -1, &n);
        ptrdiff_t bad = txn_utf8_invalid(s, n);
        if (bad >= 0) txn_refuse_string(L, -1, bad, w);
        break;
      }
      case LUA_TFUNCTION:
      case LUA_TUSERDATA:
      case LUA_TLIGHTUSERDATA:
      case LUA_TTHREAD:
        refuse_inner(L, lua_gettop(L) - 1, lua_gettop(L));
        break;
      default:
        break;
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, copy);
  }
  if (marked) {
    lua_getiuservalue(L, context, UV_MARKER);
    /* NB: a __gc a script planted in the marker (getmetatable of a list) would make this copy
       finalized, past the sandbox's refusal: cleared before the metatable is set. */
    lua_pushliteral(L, "__gc");
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_setmetatable(L, copy);
  }
  if (!lua_isnil(L, visiting)) {
    lua_pushvalue(L, src);
    lua_pushnil(L);
    lua_rawset(L, visiting);
  }
  /* leave only the copy */
  if (copy != top + 1) lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

static void check_key(lua_State *L, int key, int path) {
  int type = lua_type(L, key);
  if (type == LUA_TSTRING) return;
  if (type == LUA_TNIL || (type == LUA_TNUMBER && !lua_isinteger(L, key) && isnan(lua_tonumber(L, key))))
    luaL_error(L, "state keys cannot be nil or NaN");
  if (type == LUA_TNUMBER && !lua_isinteger(L, key)) {
    /* NB: a float of integral value is stored as the integer key (Lua's rule), which JSON can write. */
    lua_Number n = lua_tonumber(L, key);
    lua_Integer integral;
    if (n == floor(n) && lua_numbertointeger(n, &integral)) return;
    txn_where w = {path, key, 0, NULL};
    txn_refuse_float_key(L, key, &w);
  }
}

/* These refuse what JSON cannot write, stored at the key at 2 of the table whose path is at `path`:
   the float at 3 when it is NaN or an infinity, the string at 3 or the key at 2 (a string) when it
   is not UTF-8. */
static void check_float(lua_State *L, int path) {
  if (isfinite(lua_tonumber(L, 3))) return;
  txn_where w = {path, 2, 0, NULL};
  txn_refuse_number(L, 3, &w);
}

static void check_text(lua_State *L, int at, int path) {
  size_t n;
  const char *s = lua_tolstring(L, at, &n);
  ptrdiff_t bad = txn_utf8_invalid(s, n);
  if (bad < 0) return;
  txn_where w = {path, 2, 0, NULL};
  if (at == 2) txn_refuse_key(L, 2, bad, &w);
  txn_refuse_string(L, 3, bad, &w);
}

/* Replaces the table at 3 with the copy the state keeps (see push_copy). Apart from `write`, whose
   frame stays small: most writes store scalars. */
static __attribute__((noinline)) void store_copy(lua_State *L, lunar_txn *t, int context, int path) {
  lua_pushnil(L); /* the copy's set of tables being copied */
  int visiting = lua_gettop(L);
  int inner[204];
  txn_where w = {path, 2, 0, inner};
  push_copy(L, t, context, 3, 0, visiting, &w, inner);
  lua_replace(L, 3);
  lua_settop(L, visiting - 1);
}

static int shallow_write(lua_State *L, lunar_txn *t, int path, int key, int value, int old) {
  size_t depth = lua_rawlen(L, path);
  /* NB: a child's identity: composition keeps the ids of a list across calls, and must see this. */
  if (depth > 0 && lua_type(L, key) == LUA_TSTRING && lua_tostring(L, key) == t->id_key) return 1;
  if (depth == 1) return 1;
  /* NB: at the root, a scalar over a scalar is no container's (containers are tables, or nil
     for a presented child): `count + 1` leaves the routing's checks out. */
  return depth == 0 && (lua_type(L, value) == LUA_TTABLE || lua_type(L, old) == LUA_TTABLE || lua_isnil(L, old));
}

/* Journals and makes the write of `value` (3) at `key` (2) of the proxy at 1, whose real table is at
   `real` and path at `path` (stack slots or upvalues). */
int txn_write(lua_State *L, lunar_txn *t, int context, int real, int path) {
  check_key(L, 2, path);
  switch (lua_type(L, 3)) {
    case LUA_TNUMBER:
      /* NB: an integer, most numbers state holds, costs this one test. */
      if (!lua_isinteger(L, 3)) check_float(L, path);
      break;
    case LUA_TSTRING:
      check_text(L, 3, path);
      break;
    case LUA_TTABLE:
      store_copy(L, t, context, path);
      break;
    case LUA_TFUNCTION:
    case LUA_TUSERDATA:
    case LUA_TLIGHTUSERDATA:
    case LUA_TTHREAD:
      return refuse_value(L, 2, 3);
    default:
      break;
  }
  lua_pushvalue(L, 2);
  int old_type = lua_rawget(L, real);
  int old = lua_gettop(L);
  /* NB: a write that changes nothing (`state.fact = nil` when there is none) needs no undo and
     changes nothing to report. A stored table is always a new copy. */
  if (lua_rawequal(L, 3, old)) return 0;
  /* NB: only a new key can be one JSON cannot write: the keys already there were checked when
     they were stored (or when the state was loaded). */
  if (old_type == LUA_TNIL) {
    if (lua_type(L, 2) == LUA_TSTRING) check_text(L, 2, path);
    /* NB: nor can JSON write a table holding both 3 and "3". */
    if (txn_key_has_twin(L, real, 2)) {
      txn_where w = {path, 2, 0, NULL};
      txn_refuse_twin_key(L, 2, &w);
    }
  }
  lua_getiuservalue(L, context, UV_JOURNAL);
  int journal = lua_gettop(L);
  lua_Integer at = t->count + 1;
  lua_pushvalue(L, real);
  lua_rawseti(L, journal, at + LUNAR_TXN_TABLE);
  lua_pushvalue(L, 2);
  lua_rawseti(L, journal, at + LUNAR_TXN_KEY);
  lua_pushvalue(L, old);
  lua_rawseti(L, journal, at + LUNAR_TXN_OLD);
  lua_pushvalue(L, path);
  lua_rawseti(L, journal, at + LUNAR_TXN_PATH);
  /* NB: a composed feature's children live in tables at the root or in them: only a table put or
     removed at the root, or a write inside a table at the root, can add or remove one. (The root's
     path is its marker, a table of no keys.) */
  /* NB: composition's routing checks its containers only after a write this shallow. */
  if (t->routing && !t->flagged && shallow_write(L, t, path, 2, 3, old) && t->shallow++ == 0) t->flagged = 1;
  /* NB: counted only once the entry is whole, so a memory error above leaves no half entry. */
  t->count = at - 1 + LUNAR_TXN_STRIDE;
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, real);
  return 0;
}
