#include "transaction.h"

/*
 * The state proxies: what a reducer's `state` is. A proxy is an empty table whose own metatable
 * carries the real table, its path and the call that made it (transaction.h), so nothing of the
 * state is reachable through the proxy itself: raw access and the primitive `next` see an empty
 * table. Reads fall through to the real table (tables read as proxies); writes are journaled
 * before they happen (writes.c); iteration sees the real table (iteration.c).
 *
 * Here: the proxies' metatables, the call's cache of proxies, and the proxies' reads and writes.
 */

static int nested_index(lua_State *L);
static int nested_newindex(lua_State *L);
static int root_index(lua_State *L);
static int root_newindex(lua_State *L);

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
  lua_pushcfunction(L, txn_len);
  lua_setfield(L, mt, "__len");
  lua_pushcfunction(L, txn_pairs);
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
int txn_stale(lua_State *L, int context, int what) {
  lua_getiuservalue(L, context, UV_STALE);
  lua_pushvalue(L, what);
  lua_call(L, 1, 0);
  return 0; /* not reached: stale raises */
}

/* Pushes the proxy of the table at `value`, read at `key` of the live proxy at `parent` (its
   metatable at `mt`). */
void txn_push_child(lua_State *L, lunar_txn *t, int context, int value, int mt, int parent, int key) {
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
  if (!push_nested_real(L, t, context, 1)) return txn_stale(L, context, 2); /* 3 */
  lua_pushvalue(L, 2);
  if (lua_rawget(L, 3) != LUA_TTABLE) return 1; /* 4: scalars first, most reads are fields */
  lua_getmetatable(L, 1);                       /* 5 */
  txn_push_child(L, t, context, 4, 5, 1, 2);
  return 1;
}


/* A nested proxy's write: upvalue 1 the context. */
static int nested_newindex(lua_State *L) {
  int context = lua_upvalueindex(1);
  lunar_txn *t = txn_at(L, context);
  lua_settop(L, 3);
  if (!push_nested_real(L, t, context, 1)) return txn_stale(L, context, 2); /* 4 */
  push_nested_path(L, t, context, 1);                                    /* 5 */
  return txn_write(L, t, context, 4, 5);
}

/* The root proxies' own pair, the hottest code of a call (most reads and writes are fields of the
   root): upvalues 1 the context, 2 the state table, 3 the root's path marker. */

static int root_index(lua_State *L) {
  lunar_txn *t = txn_at(L, lua_upvalueindex(1));
  lua_settop(L, 2);
  if (!t->active || lua_topointer(L, 1) != t->root) return txn_stale(L, lua_upvalueindex(1), 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TTABLE) return 1; /* 3 */
  lua_getmetatable(L, 1); /* 4 */
  txn_push_child(L, t, lua_upvalueindex(1), 3, 4, 1, 2);
  return 1;
}

static int root_newindex(lua_State *L) {
  lunar_txn *t = txn_at(L, lua_upvalueindex(1));
  lua_settop(L, 3);
  if (!t->active || lua_topointer(L, 1) != t->root) return txn_stale(L, lua_upvalueindex(1), 2);
  return txn_write(L, t, lua_upvalueindex(1), lua_upvalueindex(2), lua_upvalueindex(3));
}
