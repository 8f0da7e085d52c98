#include <stdlib.h>
#include <string.h>
#include "transaction.h"

/*
 * The transaction's operations (CLuaTransaction.h): the reducer call (begin, call, end), commit
 * and rollback, and their Lua entries in the library the prelude receives (library.c). Everything here that runs Lua runs inside a protected call
 * (lunar_call_c), so raising is allowed and never crosses Swift.
 *
 * Why C: every instruction of a reducer call runs under the count hook that enforces the
 * instruction budget, so Lua metamethods cost twice (their own work, and a hook trap per
 * instruction). C functions run no VM instructions.
 */

#define UP(i) lua_upvalueindex(i)

int lunar_txn_is_open(const lunar_txn *t) { return t->open; }

/* ---- a call ---- */

/* Begins a transaction and runs fn(rootProxy, action, deps) — or, for a composed feature's routing
   (`instance` given), fn(rootProxy, action, deps, state, instance) outside the instruction budget —
   then ends the call. Leaves finish(result)'s results (none when the reducer returned nil) above
   `base`, the stack's top on entry; returns their count. The transaction stays open. */
static int run(lua_State *L, lunar_txn *t, int context, int fn, int state, int action, int deps, int instance) {
  if (t->open) return luaL_error(L, "lunar: a reducer call began while the last one's transaction was open");
  if (lua_type(L, state) != LUA_TTABLE) return luaL_error(L, "lunar: the state must be a table");
  int base = lua_gettop(L);
  t->open = 1;
  t->active = 1;
  t->generation++;
  t->count = 0;
  t->shallow = 0;
  t->loose = 0;
  t->routing = instance != 0;
  t->flagged = 0;
  lua_pushvalue(L, fn);
  /* the root proxy: a fresh empty table per call, the only live one */
  lua_createtable(L, 0, 0);
  t->root = lua_topointer(L, -1);
  txn_root_metatable(L, t, context, state);
  lua_setmetatable(L, -2);
  lua_pushvalue(L, action);
  lua_pushvalue(L, deps);
  if (instance != 0) {
    /* NB: the routing (routing.c) gets the state table, which it would otherwise look up, and
       its instance's data, which it makes current. */
    lua_pushvalue(L, state);
    lua_pushvalue(L, instance);
    lua_call(L, 5, 1);
  } else {
    lua_call(L, 3, 1);
  }
  t->active = 0;
  if (t->proxies > 0) txn_forget_proxies(L, t, context);
  if (lua_isnil(L, -1) && t->loose == 0) {
    lua_settop(L, base);
    return 0;
  }
  lua_getiuservalue(L, context, UV_FINISH);
  lua_insert(L, -2);
  /* NB: `finish` is the prelude's, trusted and always terminating (it reads only tables the
     prelude made): it runs outside the budget, which counts the author's code. */
  int timed = lunar_budget_pause(L);
  lua_call(L, 1, LUA_MULTRET);
  if (timed) lunar_budget_resume(L);
  return lua_gettop(L) - base;
}

/* reduce(fn, state, action, deps) -> finish(result)'s results: a transaction left open, for the
   host's own calls of a function on the state (`migrate`). */
int txn_reduce_call(lua_State *L) {
  lua_settop(L, 4);
  return run(L, txn_at(L, UP(1)), UP(1), 1, 2, 3, 4, 0);
}

/* A bound reducer: bound(state, action). Upvalues: */
enum { BOUND_CONTEXT = 1, BOUND_FUNCTION, BOUND_DEPS, BOUND_INSTANCE };

static int bound_call(lua_State *L) {
  lua_settop(L, 2);
  int instance = lua_isnil(L, UP(BOUND_INSTANCE)) ? 0 : UP(BOUND_INSTANCE);
  return run(L, txn_at(L, UP(BOUND_CONTEXT)), UP(BOUND_CONTEXT), UP(BOUND_FUNCTION), 1, 2, UP(BOUND_DEPS), instance);
}

/* bind(fn, deps [, instance]) -> bound(state, action); with `instance` (a composed feature's data),
   fn is its routing, run outside the budget as fn(state, action, deps, stateTable, instance). */
int txn_bind(lua_State *L) {
  lua_settop(L, 3);
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_pushvalue(L, UP(1));
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_pushcclosure(L, bound_call, 4);
  return 1;
}

/* ---- the host's entry ---- */

typedef struct reduce_job {
  lunar_txn *t;
  int bound;
  int state;
  lunar_txn_outcome *out;
} reduce_job;

/* (job, action): bound(state, action), then the report. Leaves the effect's results, then the
   values the report points at. */
static int reduce_entry(lua_State *L) {
  reduce_job *job = (reduce_job *)lua_touserdata(L, 1);
  lua_settop(L, 2);
  lua_rawgeti(L, LUA_REGISTRYINDEX, job->t->self); /* 3 */
  /* NB: the bound reducer's parts read in place (4..7) rather than called: one C call less. */
  lua_rawgeti(L, LUA_REGISTRYINDEX, job->bound);
  if (lua_tocfunction(L, 4) != bound_call) return luaL_error(L, "lunar: not a bound reducer");
  lua_getupvalue(L, 4, BOUND_FUNCTION);                 /* 5 */
  lua_getupvalue(L, 4, BOUND_DEPS);                     /* 6 */
  lua_getupvalue(L, 4, BOUND_INSTANCE);                 /* 7 */
  lua_rawgeti(L, LUA_REGISTRYINDEX, job->state);        /* 8 */
  int instance = lua_isnil(L, 7) ? 0 : 7;
  int results = run(L, job->t, 3, 5, 8, 2, 6, instance);
  /* the effect's results, right above the context */
  lua_rotate(L, 4, results);
  lua_settop(L, 3 + results);
  job->out->effects = results;
  txn_report(L, job->t, 3, job->out);
  return lua_gettop(L) - 3;
}

int lunar_txn_reduce(lunar_host *h, lua_State *L, lunar_txn *t, int bound, int state,
                     const unsigned char *action, size_t length, lunar_txn_outcome *out, int *count) {
  reduce_job job = {t, bound, state, out};
  out->effects = 0;
  out->changes = 0;
  return lunar_call_c(h, L, reduce_entry, &job, action, length, 1, count);
}

/* ---- closing ---- */

void lunar_txn_commit(lua_State *L, lunar_txn *t) {
  if (!t->open) return;
  t->open = 0;
  t->active = 0;
  if (!lua_checkstack(L, 8)) return; /* the stale entries stay: the next call overwrites them */
  int top = lua_gettop(L);
  /* NB: rawgeti on the registry and raw writes of nil to existing slots never allocate. */
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->self);
  /* NB: stale entries are overwritten by the next writes; only a long journal is cleared, so that
     it does not keep large old values alive. */
  if (t->count > 64) {
    lua_getiuservalue(L, top + 1, UV_JOURNAL);
    for (lua_Integer i = 1; i <= t->count; i++) {
      lua_pushnil(L);
      lua_rawseti(L, top + 2, i);
    }
    lua_pop(L, 1);
  }
  t->count = 0;
  /* NB: writes no composition checked (a plain feature's, `migrate`'s) may have changed what the
     prelude derived from the state. */
  if (!t->routing) {
    lua_getiuservalue(L, top + 1, UV_DERIVED);
    txn_clear(L, top + 2);
    lua_pop(L, 1);
  }
  lua_getiuservalue(L, top + 1, UV_PENDING);
  for (lua_Integer i = (lua_Integer)lua_rawlen(L, top + 2); i >= 1; i--) {
    lua_pushnil(L);
    lua_rawseti(L, top + 2, i);
  }
  lua_settop(L, top);
}

static int rollback_entry(lua_State *L) {
  lunar_txn *t = (lunar_txn *)lua_touserdata(L, 1);
  lua_settop(L, 0);
  lua_rawgeti(L, LUA_REGISTRYINDEX, t->self); /* 1 */
  lua_getiuservalue(L, 1, UV_JOURNAL);       /* 2 */
  for (lua_Integer at = t->count - LUNAR_TXN_STRIDE + 1; at >= 1; at -= LUNAR_TXN_STRIDE) {
    lua_rawgeti(L, 2, at + LUNAR_TXN_TABLE);
    lua_rawgeti(L, 2, at + LUNAR_TXN_KEY);
    lua_rawgeti(L, 2, at + LUNAR_TXN_OLD);
    lua_rawset(L, 3);
    lua_pop(L, 1);
  }
  for (lua_Integer i = 1; i <= t->count; i++) {
    lua_pushnil(L);
    lua_rawseti(L, 2, i);
  }
  t->count = 0;
  t->flagged = 0;
  /* what the prelude derived during the call is gone with the writes it saw */
  lua_getiuservalue(L, 1, UV_DERIVED);
  txn_clear(L, lua_gettop(L));
  lua_pop(L, 1);
  /* the effects the call described are never started */
  lua_getiuservalue(L, 1, UV_HANDLES); /* 3 */
  lua_getiuservalue(L, 1, UV_PENDING); /* 4 */
  for (lua_Integer i = (lua_Integer)lua_rawlen(L, 4); i >= 1; i--) {
    lua_rawgeti(L, 4, i);
    lua_pushnil(L);
    lua_rawset(L, 3);
    lua_pushnil(L);
    lua_rawseti(L, 4, i);
  }
  if (t->proxies > 0) txn_forget_proxies(L, t, 1);
  t->active = 0;
  t->open = 0;
  return 0;
}

int lunar_txn_rollback(lunar_host *h, lua_State *L, lunar_txn *t) {
  if (!t->open) return LUA_OK;
  int top = lua_gettop(L);
  /* NB: undoing gives back what the call took (at most it re-adds keys the call removed): the
     memory ceiling, which the call may have hit, must not stop it. */
  size_t limit = h->bytes_limit;
  h->bytes_limit = 0;
  int count = 0;
  int status = lunar_call_c(h, L, rollback_entry, t, NULL, 0, 0, &count);
  h->bytes_limit = limit;
  if (status == LUA_OK) lua_settop(L, top);
  return status;
}

/* For Lua callers of `reduce` (the host's `migrate`): commit() and rollback(). */
int txn_commit_call(lua_State *L) {
  lunar_txn_commit(L, txn_at(L, UP(1)));
  return 0;
}

int txn_rollback_call(lua_State *L) {
  lua_pushcfunction(L, rollback_entry);
  lua_pushlightuserdata(L, txn_at(L, UP(1)));
  lua_call(L, 1, 0);
  return 0;
}
