#include <stdlib.h>
#include <string.h>
#include "transaction.h"

/*
 * `core`, the library the prelude receives: the transaction context's construction, the
 * transaction's Lua entries (transaction.c), what composition reads of the running call, and the
 * budget around trusted code. Functions of the first table close over the context (upvalue 1).
 */

#define UP(i) lua_upvalueindex(i)

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
    {"setup", setup},           {"reduce", txn_reduce_call},    {"bind", txn_bind},
    {"commit", txn_commit_call}, {"rollback", txn_rollback_call},    {"realOf", real_of},
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
