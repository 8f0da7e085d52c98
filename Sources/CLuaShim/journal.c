#include <math.h>
#include <string.h>
#include "internal.h"

/*
 * The hot path of a Lua feature's action, in C: the reducer call, the state proxies' reads and
 * writes, making nested proxies, and switching the instruction budget off around composition's
 * routing. The Lua prelude (lunar_host.lua) owns the rest of the journal machinery — value
 * semantics for tables, rollback, change lists, pairs — and is called back from here only on the
 * rare paths (a table read or assigned).
 *
 * Why C: every instruction of a reducer call runs under the count hook that enforces the
 * instruction budget, so Lua metamethods cost twice (their own work, and a hook trap per
 * instruction). C functions run no VM instructions. Everything here runs inside the protected
 * call of lunar_call: raising (luaL_error, memory errors) is allowed, and never crosses Swift.
 */

/* The call's scalars, shared with the prelude: a userdata that Lua indexes as `st[SLOT]`. */
typedef struct journal_state {
  int active;              /* a reducer call is running */
  lua_Integer generation;  /* the current call's number (an earlier call's nested proxies carry an older one) */
  lua_Integer count;       /* journal entries in use (4 per write: table, key, old value, path) */
  lua_Integer pending;     /* effect handles registered by the current call */
  lua_Integer shuffled;    /* tables whose elements moved during the call */
  lua_Integer proxies;     /* nested proxies made during the call */
  const void *root;        /* the current call's root proxy (also the user value, for Lua) */
  const void *root_marker; /* the ROOT path marker, which journal entries of root writes carry */
  const void *recent[8];   /* the nested proxies made last in the current call (a ring) */
  lua_Integer made;        /* nested proxies made in the current call */
  lua_Integer shallow;     /* writes of the current call at a path of at most one key: to the root's
                              fields, or to those of a table at the root (composition's containers).
                              In a composed feature's call, journal[0] is true while there are
                              some, for its routing to see. */
  int routing;             /* the current call runs a composed feature's routing */
  int flagged;             /* journal[0] is set */
} journal_state;

enum { SLOT_ACTIVE = 1, SLOT_GENERATION, SLOT_COUNT, SLOT_PENDING, SLOT_SHUFFLED, SLOT_PROXIES, SLOT_ROOT };

static lua_Integer *slot(journal_state *j, lua_Integer n) {
  switch (n) {
    case SLOT_GENERATION: return &j->generation;
    case SLOT_COUNT: return &j->count;
    case SLOT_PENDING: return &j->pending;
    case SLOT_SHUFFLED: return &j->shuffled;
    case SLOT_PROXIES: return &j->proxies;
    default: return NULL;
  }
}

static int state_index(lua_State *L) {
  journal_state *j = (journal_state *)lua_touserdata(L, 1);
  lua_Integer n = lua_tointeger(L, 2);
  if (n == SLOT_ACTIVE) {
    lua_pushboolean(L, j->active);
    return 1;
  }
  if (n == SLOT_ROOT) { /* the root proxy of the call in progress (or of the last one) */
    lua_getiuservalue(L, 1, 1);
    return 1;
  }
  lua_Integer *p = slot(j, n);
  if (p == NULL) return luaL_error(L, "lunar: no journal slot %I", (LUAI_UACINT)n);
  lua_pushinteger(L, *p);
  return 1;
}

static int state_newindex(lua_State *L) {
  journal_state *j = (journal_state *)lua_touserdata(L, 1);
  lua_Integer n = lua_tointeger(L, 2);
  if (n == SLOT_ACTIVE) {
    j->active = lua_toboolean(L, 3);
    return 0;
  }
  lua_Integer *p = slot(j, n);
  if (p == NULL) return luaL_error(L, "lunar: no journal slot %I", (LUAI_UACINT)n);
  *p = luaL_checkinteger(L, 3);
  return 0;
}

/* state() -> a fresh `st`, all zero; its user value holds the current call's root proxy */
static int new_state(lua_State *L) {
  journal_state *j = (journal_state *)lua_newuserdatauv(L, sizeof(journal_state), 1);
  memset(j, 0, sizeof *j);
  if (luaL_newmetatable(L, "lunar.journalstate")) {
    lua_pushcfunction(L, state_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, state_newindex);
    lua_setfield(L, -2, "__newindex");
  }
  lua_setmetatable(L, -2);
  return 1;
}

/* ---- proxies' metamethods ----
   upvalues: 1 st, 2 GEN key, 3 REAL key, 4 PATH key, 5 array marker metatable, 6 proxyOf,
             7 stale, 8 journal, 9 stored, 10 ROOT path marker, 11 childPath,
             12 the real table for a root proxy's metamethods (nil for nested proxies) */

#define UP(i) lua_upvalueindex(i)
#define METHOD_UPVALUES 12

static journal_state *journal_of(lua_State *L, int idx) { return (journal_state *)lua_touserdata(L, idx); }

static int is_root(lua_State *L) { return !lua_isnil(L, UP(12)); }

/* Whether the proxy at 1 belongs to the running call: a root proxy is the call's own (each call
   makes a new one, so one kept from an earlier call is refused); a nested one carries the call's
   generation. */
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
static int methods(lua_State *L) {
  luaL_checkudata(L, 1, "lunar.journalstate");
  lua_settop(L, METHOD_UPVALUES);
  int root = !lua_isnil(L, METHOD_UPVALUES);
  for (int i = 1; i <= METHOD_UPVALUES; i++) lua_pushvalue(L, i);
  lua_pushcclosure(L, root ? root_index : proxy_index, METHOD_UPVALUES);
  for (int i = 1; i <= METHOD_UPVALUES; i++) lua_pushvalue(L, i);
  lua_pushcclosure(L, root ? root_newindex : proxy_newindex, METHOD_UPVALUES);
  return 2;
}

/* ---- the reducer call ----
   upvalues: 1 st, 2 journal, 3 rootMetatables (weak, real -> metatable), 4 rootMetatableOf,
             5 commit, 6 endCall, 7 finish, 8 ROOT path marker,
             and for a bound reducer: 9 the feature's reduce, 10 its deps, 11 instance (or nil),
             12 the last state table, 13 its root metatable (a cache: see reduce_with),
             14 the last path of a one-write outcome (see one_write) */

#define REDUCER_UPVALUES 8
/* a bound reducer's last state table and its root metatable (see reduce_with) */
#define BOUND_REAL (REDUCER_UPVALUES + 4)
#define BOUND_METATABLE (REDUCER_UPVALUES + 5)
/* a bound reducer's last path of a one-write outcome (see one_write) */
#define BOUND_PATH (REDUCER_UPVALUES + 6)

/* With fn, state, action, deps at 1..4: what the host reads. Nothing (no change, no effect);
   nil, 1, path, key, isNil, value (one write, no effect); or finish(result)'s results. A
   `trusted` fn (composition's routing) runs outside the instruction budget. */
/* For the host's own calls (lunar_reduce): fills `out` from the call's one write, a scalar set to
   a string key, and returns the results to leave (none for the root, the path for a nested one);
   -1 when the write is not of that kind. */
static int one_write(lua_State *L, journal_state *j, lunar_reduced *out) {
  int journal = UP(2);
  lua_rawgeti(L, journal, 4); /* 6: the path */
  int root = lua_topointer(L, 6) == j->root_marker;
  if (lua_rawgeti(L, journal, 2) != LUA_TSTRING) return -1; /* 7: the key */
  out->key = lua_tolstring(L, 7, &out->key_length);        /* the journal keeps it alive */
  int table = 2;                                            /* a root write's table is the state */
  if (!root) {
    lua_rawgeti(L, journal, 1);
    table = 8;
  }
  lua_pushvalue(L, 7);
  int value = lua_gettop(L);
  switch (out->value_type = lua_rawget(L, table)) {
    case LUA_TBOOLEAN: out->boolean = lua_toboolean(L, value); break;
    case LUA_TNUMBER:
      out->is_integer = lua_isinteger(L, value);
      if (out->is_integer) out->integer = lua_tointeger(L, value);
      else out->number = lua_tonumber(L, value);
      break;
    case LUA_TSTRING: out->string = lua_tolstring(L, value, &out->string_length); break; /* kept by the table */
    default: return -1; /* nil (a removal) or a table: the general path */
  }
  if (root) {
    out->kind = LUNAR_REDUCED_ROOT_FIELD;
    return 0;
  }
  out->kind = LUNAR_REDUCED_FIELD;
  lua_settop(L, 6);
  /* NB: composition reuses an element's path table from call to call, so the host can skip
     reading a path it has seen last time; the upvalue keeps it alive, so identity means equality. */
  out->same_path = lua_rawequal(L, 6, UP(BOUND_PATH));
  if (!out->same_path) {
    lua_pushvalue(L, 6);
    lua_replace(L, UP(BOUND_PATH));
  }
  return 1;
}

static int reduce_with(lua_State *L, int trusted, lunar_reduced *out) {
  journal_state *j = journal_of(L, UP(1));
  if (j->pending > 0 || j->count > 64) {
    lua_pushvalue(L, UP(5));
    lua_call(L, 0, 0);
  } else {
    j->count = 0;
  }
  ++j->generation;
  j->active = 1;
  j->made = 0;
  j->shallow = 0;
  j->routing = trusted;
  if (j->flagged) {
    lua_pushnil(L);
    lua_rawseti(L, UP(2), 0);
    j->flagged = 0;
  }

  lua_pushvalue(L, 1); /* 5: the reducer */
  /* 6: the root proxy, empty: its metamethods close over the state, and it is the call's own */
  lua_createtable(L, 0, 0);
  j->root = lua_topointer(L, 6);
  lua_pushvalue(L, 6);
  lua_setiuservalue(L, UP(1), 1);
  if (out != NULL && lua_rawequal(L, 2, UP(BOUND_REAL))) {
    lua_pushvalue(L, UP(BOUND_METATABLE)); /* the same state as the last call's: its metatable */
  } else {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, UP(3)) == LUA_TNIL) {
      lua_pop(L, 1);
      lua_pushvalue(L, UP(4));
      lua_pushvalue(L, 2);
      lua_call(L, 1, 1);
    }
    if (out != NULL) {
      lua_pushvalue(L, -1);
      lua_replace(L, UP(BOUND_METATABLE));
      lua_pushvalue(L, 2);
      lua_replace(L, UP(BOUND_REAL));
    }
  }
  lua_setmetatable(L, 6);
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  if (trusted) {
    /* the routing also gets the state table itself, which it would otherwise look up, and its
       instance's data (bound_call's `instance`), which it makes current */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, UP(11));
    lunar_hook_off(L);
    lua_call(L, 5, 1); /* 5: the result */
  } else {
    lua_call(L, 3, 1); /* 5: the result */
  }
  if (trusted) lunar_ensure_hook(L);

  if (j->shuffled > 0 || j->proxies > 0) {
    lua_pushvalue(L, UP(6));
    lua_call(L, 0, 0);
  } else {
    j->active = 0;
  }

  if (out != NULL) {
    out->kind = LUNAR_REDUCED_OTHER;
    if (lua_isnil(L, 5) && j->count == 0) {
      out->kind = LUNAR_REDUCED_NOTHING;
      return 0;
    }
    if (lua_isnil(L, 5) && j->count == 4) {
      int left = one_write(L, j, out);
      if (left >= 0) return left;
      out->kind = LUNAR_REDUCED_OTHER;
      lua_settop(L, 5);
    }
  } else if (lua_isnil(L, 5)) {
    if (j->count == 0) return 0;
    if (j->count == 4) {
      /* one write, the most common action */
      int journal = UP(2);
      lua_pushnil(L);
      lua_pushinteger(L, 1);
      lua_rawgeti(L, journal, 4); /* path */
      if (lua_rawequal(L, -1, UP(8))) {
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

/* reduce(fn, state, action, deps) */
static int reduce_call(lua_State *L) {
  lua_settop(L, 4);
  return reduce_with(L, 0, NULL);
}

/* bound(state, action): reduce with the feature's function and deps; for a composed feature, the
   routing outside the budget, given the state table and the instance's data */
static int bound_call(lua_State *L) {
  lunar_reduced *out = NULL;
  if (lua_type(L, 2) == LUA_TLIGHTUSERDATA) {
    /* from lunar_reduce: the action as a push program, decoded here, inside the protected call */
    lunar_reduce_job *job = (lunar_reduce_job *)lua_touserdata(L, 2);
    out = job->out;
    lua_settop(L, 1);
    lunar_decode_value(L, &job->action, 0);
  }
  lua_settop(L, 2);
  int trusted = !lua_isnil(L, UP(11));
  if (trusted) lunar_hook_off(L);
  lua_pushvalue(L, UP(9));
  lua_insert(L, 1);
  lua_pushvalue(L, UP(10));
  return reduce_with(L, trusted, out);
}

/* reducer(st, journal, rootMetatables, rootMetatableOf, commit, endCall, finish, ROOT)
   -> reduce(fn, state, action, deps) */
static int make_reducer(lua_State *L) {
  journal_state *j = (journal_state *)luaL_checkudata(L, 1, "lunar.journalstate");
  lua_settop(L, REDUCER_UPVALUES);
  j->root_marker = lua_topointer(L, 8); /* kept alive by the closure's upvalues */
  lua_pushcclosure(L, reduce_call, REDUCER_UPVALUES);
  return 1;
}

/* bind(reduce, fn, deps [, instance]) -> bound(state, action), where `reduce` came from reducer();
   with `instance` (a composed feature's per-instance data), fn is its routing (trusted), called
   as fn(state, action, deps, stateTable, instance) */
static int bind(lua_State *L) {
  if (lua_tocfunction(L, 1) != reduce_call) return luaL_argerror(L, 1, "not a lunar reducer");
  lua_settop(L, 4);
  for (int i = 1; i <= REDUCER_UPVALUES; i++) lua_getupvalue(L, 1, i);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  lua_pushnil(L); /* BOUND_REAL */
  lua_pushnil(L); /* BOUND_METATABLE */
  lua_pushnil(L); /* BOUND_PATH */
  lua_pushcclosure(L, bound_call, REDUCER_UPVALUES + 6);
  return 1;
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

static int proxy_maker(lua_State *L) {
  luaL_checkudata(L, 1, "lunar.journalstate");
  lua_settop(L, 6);
  lua_pushcclosure(L, make_proxy, 6);
  return 1;
}

/* rootReal(v) -> the state table behind a root proxy; nil for anything else (nested proxies carry
   theirs under REAL) */
static int root_real(lua_State *L) {
  lua_settop(L, 1);
  if (lua_type(L, 1) != LUA_TTABLE || !lua_getmetatable(L, 1)) return 0;
  /* NB: raw, so that a script's own metatable (one with a metatable of its own) runs nothing */
  lua_pushliteral(L, "__index");
  if (lua_rawget(L, 2) != LUA_TFUNCTION || lua_tocfunction(L, 3) != root_index) return 0;
  if (lua_getupvalue(L, 3, 12) == NULL) return 0;
  return 1;
}

/* ---- the budget around trusted code ----
   The count hook makes every VM instruction several times dearer. Composition (the prelude's
   routing of an action to a body's children) is host code that always terminates, so it runs
   without the hook, and turns it back on for each call into the author's code: the budget counts
   what the author wrote. An error leaves the hook on (or lunar_call puts it back). */

/* untimed(): the hook off, until timed() or user() */
static int untimed(lua_State *L) {
  lunar_hook_off(L);
  return 0;
}

/* timed(): the hook back on */
static int timed(lua_State *L) {
  lunar_ensure_hook(L);
  return 0;
}

/* user(fn, ...) -> fn(...)'s first result, run under the hook; the hook is off again after */
static int user(lua_State *L) {
  lunar_ensure_hook(L);
  lua_call(L, lua_gettop(L) - 1, 1);
  lunar_hook_off(L);
  return 1;
}

/* isAction(v) -> whether v is a table with a string `type` (raw): one call for composition's check
   of a wrapped action. Upvalue 1: the string "type". */
static int is_action(lua_State *L) {
  int yes = lua_type(L, 1) == LUA_TTABLE;
  if (yes) {
    lua_pushvalue(L, lua_upvalueindex(1));
    yes = lua_rawget(L, 1) == LUA_TSTRING;
  }
  lua_pushboolean(L, yes);
  return 1;
}

/* hasID(v, id) -> whether v is a table whose `id` (raw) equals id: composition's check of the
   element its id cache points at. Upvalue 1: the string "id". */
static int has_id(lua_State *L) {
  int yes = lua_type(L, 1) == LUA_TTABLE;
  if (yes) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_rawget(L, 1);
    yes = lua_rawequal(L, -1, 2);
  }
  lua_pushboolean(L, yes);
  return 1;
}

static int journal_library_worker(lua_State *L) {
  static const luaL_Reg functions[] = {
    {"state", new_state},     {"methods", methods},   {"proxyMaker", proxy_maker},
    {"reducer", make_reducer}, {"bind", bind},        {"rootReal", root_real},
    {"untimed", untimed},     {"timed", timed},       {"user", user},
    {NULL, NULL}};
  luaL_newlib(L, functions);
  lua_pushliteral(L, "type");
  lua_pushcclosure(L, is_action, 1);
  lua_setfield(L, -2, "isAction");
  lua_pushliteral(L, "id");
  lua_pushcclosure(L, has_id, 1);
  lua_setfield(L, -2, "hasID");
  return 1;
}

int lunar_push_journal_library(lua_State *L) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lua_pushcfunction(L, journal_library_worker);
  return lua_pcall(L, 0, 1, 0);
}
