#include <math.h>
#include "transaction.h"

/*
 * The state proxies: what a reducer's `state` is. A proxy is an empty table whose own metatable
 * carries the real table, its path and the call that made it (transaction.h), so nothing of the
 * state is reachable through the proxy itself: raw access and the primitive `next` see an empty
 * table. Reads fall through to the real table (tables read as proxies); writes are journaled
 * before they happen; a table stored is copied (state has value semantics, and a table a script
 * still holds can never be written behind the journal's back).
 */

static int nested_index(lua_State *L);
static int nested_newindex(lua_State *L);
static int root_index(lua_State *L);
static int root_newindex(lua_State *L);
static int len_mm(lua_State *L);
static int pairs_mm(lua_State *L);

int txn_proxy_metatable(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
  int mt = lua_gettop(L);
  /* NB: raw reads only: a script's own metatable runs nothing here. */
  if (lua_rawgeti(L, mt, MT_CONTEXT) != LUA_TUSERDATA || luaL_testudata(L, -1, TXN_NAME) == NULL) {
    lua_settop(L, mt - 1);
    return 0;
  }
  lua_pop(L, 1);
  return mt;
}

static void push_metatable(lua_State *L, int context, int real, int path) {
  lua_createtable(L, MT_SIZE, 6);
  int mt = lua_gettop(L);
  if (real != 0) {
    lua_pushvalue(L, real);
    lua_rawseti(L, mt, MT_REAL);
    lua_pushvalue(L, path);
    lua_rawseti(L, mt, MT_PATH);
  }
  lua_pushvalue(L, context);
  lua_rawseti(L, mt, MT_CONTEXT);
  if (real != 0) {
    lua_pushvalue(L, context);
    lua_pushvalue(L, real);
    lua_pushcclosure(L, root_index, 2);
    lua_setfield(L, mt, "__index");
    lua_pushvalue(L, context);
    lua_pushvalue(L, real);
    lua_pushvalue(L, path);
    lua_pushcclosure(L, root_newindex, 3);
    lua_setfield(L, mt, "__newindex");
  } else {
    /* NB: closures over the context, as the root's pair: a read or write inside a row (the
       commonest of a list's actions) finds its call without the metatable. */
    lua_pushvalue(L, context);
    lua_pushcclosure(L, nested_index, 1);
    lua_setfield(L, mt, "__index");
    lua_pushvalue(L, context);
    lua_pushcclosure(L, nested_newindex, 1);
    lua_setfield(L, mt, "__newindex");
  }
  lua_pushcfunction(L, len_mm);
  lua_setfield(L, mt, "__len");
  lua_pushcfunction(L, pairs_mm);
  lua_setfield(L, mt, "__pairs");
  lua_pushliteral(L, "lunar.state");
  lua_setfield(L, mt, "__metatable");
  lua_pushliteral(L, "lunar.state");
  lua_setfield(L, mt, "__name");
}

void txn_push_nested_metatable(lua_State *L, int context) {
  push_metatable(L, context, 0, 0);
}

void txn_root_metatable(lua_State *L, lunar_txn *t, int context, int real) {
  (void)t;
  lua_getiuservalue(L, context, UV_ROOTS);
  int roots = lua_gettop(L);
  lua_pushvalue(L, real);
  if (lua_rawget(L, roots) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_getiuservalue(L, context, UV_ROOTPATH);
    push_metatable(L, context, real, lua_gettop(L));
    lua_remove(L, -2);
    lua_pushvalue(L, real);
    lua_pushvalue(L, -2);
    lua_rawset(L, roots);
  }
  lua_remove(L, roots);
}

/* txn_push_real for a nested proxy (the metatable already known to be the nested one). */
static int push_nested_real(lua_State *L, lunar_txn *t, int context, int idx) {
  if (!t->active) return 0;
  if (lua_topointer(L, idx) == t->child && t->child_generation == t->generation) {
    lua_getiuservalue(L, context, UV_CHILD);
    return 1;
  }
  lua_getiuservalue(L, context, UV_PROXIES);
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 2);
    return 0;
  }
  lua_remove(L, -2);
  return 1;
}

int txn_push_real(lua_State *L, lunar_txn *t, int context, int mt, int idx) {
  if (!t->active) return 0;
  if (lua_rawgeti(L, mt, MT_REAL) == LUA_TTABLE) {
    /* NB: a root proxy is made per call, and only the call's own is live: one kept from an earlier
       call is refused even though its metatable is the same. */
    if (lua_topointer(L, idx) == t->root) return 1;
    lua_pop(L, 1);
    return 0;
  }
  lua_pop(L, 1);
  return push_nested_real(L, t, context, idx);
}

/* txn_push_path for a nested proxy: pushes its keys. */
static void push_nested_path(lua_State *L, lunar_txn *t, int context, int idx) {
  if (lua_topointer(L, idx) == t->child && t->child_generation == t->generation) {
    lua_getiuservalue(L, context, UV_CHILDPATH);
    return;
  }
  lua_getiuservalue(L, context, UV_PATHS);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  lua_remove(L, -2);
}

int txn_push_path(lua_State *L, int context, int mt, int idx) {
  if (lua_rawgeti(L, mt, MT_PATH) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  push_nested_path(L, txn_at(L, context), context, idx);
  return 0;
}

void txn_clear(lua_State *L, int idx) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, idx);
  }
}

/* Past this many proxies, a call's tables are replaced rather than cleared. */
#define FORGET_BY_LIST 64

void txn_forget_proxies(lua_State *L, lunar_txn *t, int context) {
  if (t->proxies > FORGET_BY_LIST) {
    /* NB: new tables give back what a call that read many tables took: a table keeps its size
       once emptied, and the next calls would look up and clear in it. */
    lua_newtable(L);
    lua_setiuservalue(L, context, UV_PROXIES);
    lua_newtable(L);
    lua_setiuservalue(L, context, UV_PATHS);
    lua_newtable(L);
    lua_setiuservalue(L, context, UV_MADE);
    t->proxies = 0;
    return;
  }
  /* NB: what the call made is cleared from the list of it, never by walking the tables: `next`
     visits every slot a table has, so each call would pay for the most an earlier call made. (A
     row action makes one proxy; two new tables per call would cost more than clearing.) Writing
     nil to existing keys never allocates. */
  int base = lua_gettop(L);
  lua_getiuservalue(L, context, UV_PROXIES); /* base + 1 */
  lua_getiuservalue(L, context, UV_PATHS);   /* base + 2 */
  lua_getiuservalue(L, context, UV_MADE);    /* base + 3 */
  for (lua_Integer i = t->proxies; i >= 1; i--) {
    lua_rawgeti(L, base + 3, i);             /* the proxy */
    lua_pushvalue(L, -1);
    if (lua_rawget(L, base + 1) == LUA_TNIL) { /* its real table */
      lua_pop(L, 1);
    } else {
      lua_pushnil(L);
      lua_rawset(L, base + 1);
    }
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, base + 1);
    lua_pushnil(L);
    lua_rawset(L, base + 2);
    lua_pushnil(L);
    lua_rawseti(L, base + 3, i);
  }
  lua_settop(L, base);
  t->proxies = 0;
}

void txn_proxy_of(lua_State *L, lunar_txn *t, int context, int real, int path) {
  real = lua_absindex(L, real);
  path = lua_absindex(L, path);
  lua_getiuservalue(L, context, UV_PROXIES);
  int cache = lua_gettop(L);
  lua_pushvalue(L, real);
  if (lua_rawget(L, cache) == LUA_TTABLE) {
    lua_remove(L, cache);
    return;
  }
  lua_pop(L, 1);
  lua_createtable(L, 0, 0);
  int proxy = lua_gettop(L);
  /* NB: a new proxy where the row proxy was: that one is gone */
  if (lua_topointer(L, proxy) == t->child) t->child = NULL;
  lua_getiuservalue(L, context, UV_NESTED);
  lua_setmetatable(L, proxy);
  /* NB: listed before it is cached: a memory error later leaves nothing the list misses. */
  lua_getiuservalue(L, context, UV_MADE);
  lua_pushvalue(L, proxy);
  lua_rawseti(L, -2, t->proxies + 1);
  lua_pop(L, 1);
  t->proxies++;
  /* NB: proxy -> real first: forgetting finds the real table through it */
  lua_pushvalue(L, proxy);
  lua_pushvalue(L, real);
  lua_rawset(L, cache);
  lua_pushvalue(L, real);
  lua_pushvalue(L, proxy);
  lua_rawset(L, cache);
  lua_getiuservalue(L, context, UV_PATHS);
  lua_pushvalue(L, proxy);
  lua_pushvalue(L, path);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_remove(L, cache);
}

void txn_child_proxy(lua_State *L, lunar_txn *t, int context, int real, int path) {
  real = lua_absindex(L, real);
  path = lua_absindex(L, path);
  lua_pushvalue(L, real);
  lua_setiuservalue(L, context, UV_CHILD);
  lua_pushvalue(L, path);
  lua_setiuservalue(L, context, UV_CHILDPATH);
  lua_createtable(L, 0, 0);
  lua_getiuservalue(L, context, UV_NESTED);
  lua_setmetatable(L, -2);
  t->child = lua_topointer(L, -1);
  t->child_generation = t->generation;
}

/* Raises the prelude's "state used outside its reducer call" error, naming `what`. */
static int stale(lua_State *L, int context, int what) {
  lua_getiuservalue(L, context, UV_STALE);
  lua_pushvalue(L, what);
  lua_call(L, 1, 0);
  return 0; /* not reached: stale raises */
}

/* Pushes the proxy of the table at `value`, read at `key` of the live proxy at `parent` (its
   metatable at `mt`). */
static void push_child(lua_State *L, lunar_txn *t, int context, int value, int mt, int parent, int key) {
  value = lua_absindex(L, value);
  lua_getiuservalue(L, context, UV_PROXIES);
  lua_pushvalue(L, value);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 2);
  /* the child's path: the parent's keys and `key`. NB: made once per parent path and key, and kept
     while the host knows it (the report interns paths by their table: a new table per call would
     be a new path for the host to read, every call). */
  int root = txn_push_path(L, context, mt, parent);
  int path = lua_gettop(L);
  lua_getiuservalue(L, context, UV_CHILDPATHS);
  lua_pushvalue(L, path);
  if (lua_rawget(L, path + 1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 1);
    lua_getiuservalue(L, context, UV_WEAKVALUES);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, path);
    lua_pushvalue(L, -2);
    lua_rawset(L, path + 1);
  }
  int children = path + 2;
  lua_pushvalue(L, key);
  if (lua_rawget(L, children) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_Integer n = root ? 0 : (lua_Integer)lua_rawlen(L, path);
    lua_createtable(L, (int)n + 1, 0);
    for (lua_Integer i = 1; i <= n; i++) {
      lua_rawgeti(L, path, i);
      lua_rawseti(L, -2, i);
    }
    lua_pushvalue(L, key);
    lua_rawseti(L, -2, n + 1);
    lua_pushvalue(L, key);
    lua_pushvalue(L, -2);
    lua_rawset(L, children);
  }
  lua_replace(L, path);
  lua_settop(L, path);
  txn_proxy_of(L, t, context, value, path);
  lua_remove(L, -2);
}

/* A nested proxy's read: upvalue 1 the context. */
static int nested_index(lua_State *L) {
  int context = lua_upvalueindex(1);
  lunar_txn *t = txn_at(L, context);
  lua_settop(L, 2);
  if (!push_nested_real(L, t, context, 1)) return stale(L, context, 2); /* 3 */
  lua_pushvalue(L, 2);
  if (lua_rawget(L, 3) != LUA_TTABLE) return 1; /* 4: scalars first, most reads are fields */
  lua_getmetatable(L, 1);                       /* 5 */
  push_child(L, t, context, 4, 5, 1, 2);
  return 1;
}

/* ---- storing values ---- */

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
    if (!txn_push_real(L, t, context, mt, src)) stale(L, context, key);
    src = lua_gettop(L);
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
static int write(lua_State *L, lunar_txn *t, int context, int real, int path) {
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

/* A nested proxy's write: upvalue 1 the context. */
static int nested_newindex(lua_State *L) {
  int context = lua_upvalueindex(1);
  lunar_txn *t = txn_at(L, context);
  lua_settop(L, 3);
  if (!push_nested_real(L, t, context, 1)) return stale(L, context, 2); /* 4 */
  push_nested_path(L, t, context, 1);                                    /* 5 */
  return write(L, t, context, 4, 5);
}

/* The root proxies' own pair, the hottest code of a call (most reads and writes are fields of the
   root): upvalues 1 the context, 2 the state table, 3 the root's path marker. */

static int root_index(lua_State *L) {
  lunar_txn *t = txn_at(L, lua_upvalueindex(1));
  lua_settop(L, 2);
  if (!t->active || lua_topointer(L, 1) != t->root) return stale(L, lua_upvalueindex(1), 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TTABLE) return 1; /* 3 */
  lua_getmetatable(L, 1); /* 4 */
  push_child(L, t, lua_upvalueindex(1), 3, 4, 1, 2);
  return 1;
}

static int root_newindex(lua_State *L) {
  lunar_txn *t = txn_at(L, lua_upvalueindex(1));
  lua_settop(L, 3);
  if (!t->active || lua_topointer(L, 1) != t->root) return stale(L, lua_upvalueindex(1), 2);
  return write(L, t, lua_upvalueindex(1), lua_upvalueindex(2), lua_upvalueindex(3));
}

static int len_mm(lua_State *L) {
  lua_settop(L, 1);
  lua_getmetatable(L, 1);        /* 2 */
  lua_rawgeti(L, 2, MT_CONTEXT); /* 3 */
  if (!txn_push_real(L, txn_at(L, 3), 3, 2, 1)) {
    lua_pushliteral(L, "#");
    return stale(L, 3, 4);
  }
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
  return 1;
}

int txn_next(lua_State *L) {
  lua_settop(L, 2);
  int mt = txn_proxy_metatable(L, 1); /* 3 */
  if (mt == 0) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
  }
  lua_rawgeti(L, mt, MT_CONTEXT); /* 4 */
  lunar_txn *t = txn_at(L, 4);
  if (!txn_push_real(L, t, 4, mt, 1)) { /* 5 */
    lua_pushliteral(L, "pairs");
    return stale(L, 4, 5);
  }
  lua_pushvalue(L, 2);
  if (!lua_next(L, 5)) {
    lua_pushnil(L);
    return 1;
  }
  /* 6: the key, 7: the value */
  if (lua_type(L, 7) == LUA_TTABLE) {
    push_child(L, t, 4, 7, mt, 1, 6);
    lua_replace(L, 7);
    lua_settop(L, 7);
  }
  return 2;
}

static int pairs_mm(lua_State *L) {
  lua_settop(L, 1);
  lua_getmetatable(L, 1);        /* 2 */
  lua_rawgeti(L, 2, MT_CONTEXT); /* 3 */
  if (!txn_push_real(L, txn_at(L, 3), 3, 2, 1)) {
    lua_pushliteral(L, "pairs");
    return stale(L, 3, 4);
  }
  lua_pushcfunction(L, txn_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}
