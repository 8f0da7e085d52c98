#include <string.h>
#include "journal.h"

/*
 * The hot path of a Lua feature's action, in C: the reducer call (reduce.c), the state proxies'
 * reads and writes and making nested proxies (proxies.c), and here the call's state shared with
 * the prelude, switching the instruction budget off around composition's routing, and the
 * library the prelude receives. The Lua prelude (Sources/LuaFeatures/Lua/lunar/host.lua) owns the
 * rest of the journal machinery — value semantics for tables, rollback, change lists, pairs — and
 * is called back from C only on the rare paths (a table read or assigned).
 *
 * Why C: every instruction of a reducer call runs under the count hook that enforces the
 * instruction budget, so Lua metamethods cost twice (their own work, and a hook trap per
 * instruction). C functions run no VM instructions. Everything here runs inside the protected
 * call of lunar_call or lunar_reduce: raising (luaL_error, memory errors) is allowed, and never
 * crosses Swift.
 */

/* ---- the call's state: `st` ---- */

static lua_Integer *slot(journal_state *j, lua_Integer n) {
  switch (n) {
    case SLOT_GENERATION: return &j->generation;
    case SLOT_COUNT: return &j->count;
    case SLOT_PENDING: return &j->pending;
    case SLOT_SHUFFLED: return &j->shuffled;
    case SLOT_PROXIES: return &j->proxies;
    case SLOT_LOOSE: return &j->loose;
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

/* a closure made by keepFrame: calls its upvalue with its arguments, returns all its results */
static int kept_frame(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
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
    {"state", new_state},     {"methods", lunar_journal_methods},   {"proxyMaker", lunar_journal_proxy_maker},
    {"reducer", lunar_journal_reducer}, {"bind", lunar_journal_bind}, {"rootReal", lunar_journal_root_real},
    {"untimed", untimed},     {"timed", timed},       {"user", user},
    {"keepFrame", keep_frame},
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
