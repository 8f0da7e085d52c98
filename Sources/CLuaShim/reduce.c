#include "journal.h"

/*
 * The reducer call, in C: it commits the previous call, makes the call's root proxy, calls the
 * reducer (a composed feature's routing outside the instruction budget), ends the call and answers
 * its commonest outcomes itself. `lunar_reduce` is the host's entry for one action.
 */

/* ---- the reducer call ----
   upvalues: 1 st, 2 journal, 3 rootMetatables (weak, real -> metatable), 4 rootMetatableOf,
             5 commit, 6 endCall, 7 finish, 8 ROOT path marker,
             and for a bound reducer: 9 the feature's reduce, 10 its deps, 11 instance (or nil),
             12 the last state table, 13 its root metatable (a cache: see reduce_with),
             14 and 15 the last path and key of a one-write outcome (see one_write) */

#define REDUCER_UPVALUES 8
/* a bound reducer's last state table and its root metatable (see reduce_with) */
#define BOUND_REAL (REDUCER_UPVALUES + 4)
#define BOUND_METATABLE (REDUCER_UPVALUES + 5)
/* a bound reducer's last field of a one-write outcome: its path and key (see one_write) */
#define BOUND_PATH (REDUCER_UPVALUES + 6)
#define BOUND_KEY (REDUCER_UPVALUES + 7)

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
  /* NB: the field last written is remembered by its key and path objects (the ROOT marker for a
     root field; composition reuses an element's path table from call to call). The upvalues keep
     both alive, so the same addresses mean the same field, and the host need not read them. */
  out->same_field = lua_topointer(L, 6) == lua_topointer(L, UP(BOUND_PATH)) &&
                    lua_topointer(L, 7) == lua_topointer(L, UP(BOUND_KEY));
  if (!out->same_field) {
    lua_pushvalue(L, 6);
    lua_replace(L, UP(BOUND_PATH));
    lua_pushvalue(L, 7);
    lua_replace(L, UP(BOUND_KEY));
  }
  if (root) {
    out->kind = LUNAR_REDUCED_ROOT_FIELD;
    return 0;
  }
  out->kind = LUNAR_REDUCED_FIELD;
  lua_settop(L, 6);
  return 1;
}

/* With fn, state, action, deps at 1..4: what the caller reads. For the host's own calls (`out`
   given), `out` says what the call did and the results are none, the path of a nested one-write
   outcome, or finish(result)'s; for Lua's (reduce_call), finish(result)'s results. A `trusted` fn
   (composition's routing) runs outside the instruction budget. */
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
  j->loose = 0;
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
    if (j->loose > 0) goto general; /* an effect built and not returned: `finish` reports it */
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
  }
general:;
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
int lunar_journal_reducer(lua_State *L) {
  journal_state *j = (journal_state *)luaL_checkudata(L, 1, "lunar.journalstate");
  lua_settop(L, REDUCER_UPVALUES);
  j->root_marker = lua_topointer(L, 8); /* kept alive by the closure's upvalues */
  lua_pushcclosure(L, reduce_call, REDUCER_UPVALUES);
  return 1;
}

/* bind(reduce, fn, deps [, instance]) -> bound(state, action), where `reduce` came from reducer();
   with `instance` (a composed feature's per-instance data), fn is its routing (trusted), called
   as fn(state, action, deps, stateTable, instance) */
int lunar_journal_bind(lua_State *L) {
  if (lua_tocfunction(L, 1) != reduce_call) return luaL_argerror(L, 1, "not a lunar reducer");
  lua_settop(L, 4);
  for (int i = 1; i <= REDUCER_UPVALUES; i++) lua_getupvalue(L, 1, i);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_pushvalue(L, 4);
  lua_pushnil(L); /* BOUND_REAL */
  lua_pushnil(L); /* BOUND_METATABLE */
  lua_pushnil(L); /* BOUND_PATH */
  lua_pushnil(L); /* BOUND_KEY */
  lua_pushcclosure(L, bound_call, REDUCER_UPVALUES + 7);
  return 1;
}

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
  int handler = lunar_open_entry(h, L, 3);
  if (handler == 0) return LUA_ERRMEM;
  lunar_reduce_job job = {{action, action + length}, out};
  out->kind = LUNAR_REDUCED_OTHER;
  /* NB: rawgeti and a light userdata never allocate: nothing here needs protection. */
  lua_rawgeti(L, LUA_REGISTRYINDEX, bound);
  lua_rawgeti(L, LUA_REGISTRYINDEX, state);
  lua_pushlightuserdata(L, &job);
  int status = lunar_budgeted_pcall(h, L, 2, LUA_MULTRET, handler);
  lunar_close_entry(L, handler);
  out->count = lua_gettop(L) - top;
  return status;
}
