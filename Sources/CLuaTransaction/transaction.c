#include <stdlib.h>
#include <string.h>
#include "transaction.h"

/*
 * The transaction: its context, the reducer call (begin, call, end), commit and rollback, and the
 * library the prelude receives. Everything here that runs Lua runs inside a protected call
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
static int reduce_call(lua_State *L) {
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
static int bind(lua_State *L) {
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
static int commit_call(lua_State *L) {
  lunar_txn_commit(L, txn_at(L, UP(1)));
  return 0;
}

static int rollback_call(lua_State *L) {
  lua_pushcfunction(L, rollback_entry);
  lua_pushlightuserdata(L, txn_at(L, UP(1)));
  lua_call(L, 1, 0);
  return 0;
}

/* ---- what composition reads ---- */

/* realOf(v) -> the state table behind a proxy live in this call; nil for anything else */
static int real_of(lua_State *L) {
  lua_settop(L, 1);
  int mt = txn_proxy_metatable(L, 1);
  if (mt == 0 || !txn_push_real(L, txn_at(L, UP(1)), UP(1), mt, 1)) return 0;
  return 1;
}

/* pathOf(v) -> a nested proxy's keys from the root; nil for a root proxy or anything else */
static int path_of(lua_State *L) {
  lua_settop(L, 1);
  int mt = txn_proxy_metatable(L, 1);
  if (mt == 0 || txn_push_path(L, UP(1), mt, 1)) return 0;
  return 1;
}

/* childProxy(real, path) -> the proxy of `real` (a table of the state at `path`) for this call:
   composition's proxy of the row an action is for, made without a proxy of its list. */
static int child_proxy(lua_State *L) {
  lua_settop(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  txn_child_proxy(L, txn_at(L, UP(1)), UP(1), 1, 2);
  return 1;
}

/* active() -> whether a reducer call runs */
static int active(lua_State *L) {
  lua_pushboolean(L, txn_at(L, UP(1))->active);
  return 1;
}

/* loose([delta]) -> the count of effects built and not consumed in this call, after adding delta */
static int loose(lua_State *L) {
  lunar_txn *t = txn_at(L, UP(1));
  t->loose += luaL_optinteger(L, 1, 0);
  lua_pushinteger(L, t->loose);
  return 1;
}

/* journalLength() -> the journal slots the running (or open) transaction uses */
static int journal_length(lua_State *L) {
  lua_pushinteger(L, txn_at(L, UP(1))->count);
  return 1;
}

/* ---- the budget around trusted code ----
   The count hook makes every VM instruction several times dearer. Composition's Lua (the
   prelude's routing of an action to the children the C loop leaves to it) is host code that
   always terminates, so it runs without the hook, and turns it back on for each call into the
   author's code: the budget counts what the author wrote. An error leaves the hook off; the next
   entry puts it back. */

/* user(fn, ...) -> fn(...)'s first result, run under the budget; untimed again after */
static int user(lua_State *L) {
  lunar_budget_resume(L);
  lua_call(L, lua_gettop(L) - 1, 1);
  lunar_budget_pause(L);
  return 1;
}

/* a closure made by keepFrame: calls its upvalue with its arguments, returns all its results.
   NB: what it keeps a frame for is the prelude's (lunar.fx): trusted, always terminating, and
   reading a script's values raw; it runs outside the budget, which counts the author's code. */
static int kept_frame(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  int timed = lunar_budget_pause(L);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  if (timed) lunar_budget_resume(L);
  return lua_gettop(L);
}

/* keepFrame(fn) -> a C function calling fn. A script that tail-calls a Lua function loses its own
   frame (`return fx.send(…)`); a C function is never tail-called, so an error that fn raises at
   level 3 still names the script's line. */
static int keep_frame(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_pushcclosure(L, kept_frame, 1);
  return 1;
}

/* isAction(v) -> whether v is a table with a string `type` (raw). */
static int is_action(lua_State *L) {
  int yes = lua_type(L, 1) == LUA_TTABLE;
  if (yes) {
    lua_pushliteral(L, "type");
    yes = lua_rawget(L, 1) == LUA_TSTRING;
  }
  lua_pushboolean(L, yes);
  return 1;
}

/* hasID(v, id) -> whether v is a table whose `id` (raw) equals id. */
static int has_id(lua_State *L) {
  int yes = lua_type(L, 1) == LUA_TTABLE;
  if (yes) {
    lua_pushliteral(L, "id");
    lua_rawget(L, 1);
    yes = lua_rawequal(L, -1, 2);
  }
  lua_pushboolean(L, yes);
  return 1;
}

/* setup { finish = fn, stale = fn, marker = metatable, handles = t, pending = t }: what the
   transaction calls back and shares with the prelude. */
static int setup(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  static const struct { const char *name; int slot; int type; } fields[] = {
    {"finish", UV_FINISH, LUA_TFUNCTION}, {"stale", UV_STALE, LUA_TFUNCTION}, {"marker", UV_MARKER, LUA_TTABLE},
    {"handles", UV_HANDLES, LUA_TTABLE},  {"pending", UV_PENDING, LUA_TTABLE},
  };
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if (lua_getfield(L, 1, fields[i].name) != fields[i].type)
      return luaL_error(L, "lunar: transaction setup needs `%s`", fields[i].name);
    lua_setiuservalue(L, UP(1), fields[i].slot);
  }
  return 0;
}

static int context_gc(lua_State *L) {
  lunar_txn *t = (lunar_txn *)lua_touserdata(L, 1);
  free(t->changes);
  t->changes = NULL;
  t->capacity = 0;
  return 0;
}

/* Pushes a metatable that makes a table's keys ("k") or values ("v") weak. */
static void push_weak_mode(lua_State *L, const char *mode) {
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
}

/* Pushes a new table whose keys ("k") or values ("v") are weak. */
static void push_weak_table(lua_State *L, const char *mode) {
  lua_newtable(L);
  push_weak_mode(L, mode);
  lua_setmetatable(L, -2);
}

static int library_worker(lua_State *L) {
  lunar_txn **result = (lunar_txn **)lua_touserdata(L, 1);
  lunar_txn *t = (lunar_txn *)lua_newuserdatauv(L, sizeof(lunar_txn), UV_COUNT); /* 2 */
  memset(t, 0, sizeof *t);
  if (luaL_newmetatable(L, TXN_NAME)) {
    lua_pushcfunction(L, context_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushliteral(L, "lunar.transaction");
    lua_setfield(L, -2, "__metatable");
  }
  lua_setmetatable(L, 2);
  lua_newtable(L);
  lua_setiuservalue(L, 2, UV_PROXIES);
  lua_newtable(L);
  lua_setiuservalue(L, 2, UV_PATHS);
  lua_newtable(L);
  lua_setiuservalue(L, 2, UV_MADE);
  txn_push_nested_metatable(L, 2);
  lua_setiuservalue(L, 2, UV_NESTED);
  lua_newtable(L);
  lua_setiuservalue(L, 2, UV_INTERNED);
  lua_newtable(L); /* the root path marker */
  lua_setiuservalue(L, 2, UV_ROOTPATH);
  push_weak_table(L, "k"); /* paths of children, by their parent's path */
  lua_setiuservalue(L, 2, UV_CHILDPATHS);
  push_weak_mode(L, "v");
  lua_setiuservalue(L, 2, UV_WEAKVALUES);
  push_weak_table(L, "k"); /* resident state -> root metatable */
  lua_setiuservalue(L, 2, UV_ROOTS);
  lua_pushliteral(L, "id");
  t->id_key = lua_tostring(L, -1);
  lua_setiuservalue(L, 2, UV_IDKEY);
  push_weak_table(L, "k"); /* derived from state */
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, 2, UV_DERIVED);
  int derived = lua_gettop(L);
  lua_newtable(L); /* the journal */
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, 2, UV_JOURNAL);
  int journal = lua_gettop(L);

  static const luaL_Reg functions[] = {
    {"setup", setup},           {"reduce", reduce_call},        {"bind", bind},
    {"commit", commit_call},    {"rollback", rollback_call},    {"realOf", real_of},
    {"pathOf", path_of},        {"childProxy", child_proxy},    {"journalLength", journal_length},
    {"active", active},         {"loose", loose},               {"body", txn_body},
    {NULL, NULL}};
  lua_createtable(L, 0, 20); /* the library */
  int library = lua_gettop(L);
  lua_pushvalue(L, 2);
  luaL_setfuncs(L, functions, 1);
  static const luaL_Reg plain[] = {
    {"user", user}, {"routingWhere", txn_routing_where},
    {"isAction", is_action}, {"hasID", has_id}, {"next", txn_next},
    {"keepFrame", keep_frame},
    {NULL, NULL}};
  luaL_setfuncs(L, plain, 0);
  lua_pushvalue(L, journal);
  lua_setfield(L, library, "journal");
  lua_pushvalue(L, derived);
  lua_setfield(L, library, "derived");
  /* the journal's layout, defined in CLuaTransaction.h */
  lua_createtable(L, 0, 5);
  lua_pushinteger(L, LUNAR_TXN_STRIDE);
  lua_setfield(L, -2, "STRIDE");
  lua_pushinteger(L, LUNAR_TXN_TABLE);
  lua_setfield(L, -2, "TABLE");
  lua_pushinteger(L, LUNAR_TXN_KEY);
  lua_setfield(L, -2, "KEY");
  lua_pushinteger(L, LUNAR_TXN_OLD);
  lua_setfield(L, -2, "OLD");
  lua_pushinteger(L, LUNAR_TXN_PATH);
  lua_setfield(L, -2, "PATH");
  lua_setfield(L, library, "layout");
  lua_pushvalue(L, 2);
  t->self = luaL_ref(L, LUA_REGISTRYINDEX);
  *result = t;
  lua_pushvalue(L, library);
  return 1;
}

int lunar_txn_push_library(lua_State *L, lunar_txn **context) {
  if (!lua_checkstack(L, 4)) return LUA_ERRMEM;
  lua_pushcfunction(L, library_worker);
  lua_pushlightuserdata(L, context);
  return lua_pcall(L, 1, 1, 0);
}
