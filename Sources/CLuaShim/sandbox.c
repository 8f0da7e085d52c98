#include <stdio.h>
#include <string.h>
#include "limited.h"

/*
 * The functions the sandbox gives scripts in place of the base library's (sandbox.lua builds the
 * environments). They are C functions, as the ones they stand for: errors name the caller's
 * function and line as stock Lua's do (`bad argument #1 to 'setmetatable'`), and `string.dump`
 * refuses them as it refuses every C function.
 */

#define PRINT_BYTES_PER_UNIT 8

/* Lua's argument error, naming `fallback` when the call site gives no name (a function called
   through pcall), where stock Lua finds the name of the global function it stands for. */
int lunar_argument_error(lua_State *L, int arg, const char *fallback, const char *message) {
  lua_Debug ar;
  if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name != NULL) return luaL_argerror(L, arg, message);
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fallback, message);
}

int lunar_type_error(lua_State *L, int arg, const char *fallback, const char *expected) {
  const char *got = lua_isnone(L, arg) ? "no value" : luaL_typename(L, arg);
  return lunar_argument_error(L, arg, fallback, lua_pushfstring(L, "%s expected, got %s", expected, got));
}

/* Calls the original C function (upvalue 1) on this frame's arguments. */
static inline int original(lua_State *L) {
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* setmetatable(t, mt): refuses a __gc metamethod, whose finalizer would run at a moment no script
   controls and break determinism. */
static int sandbox_setmetatable(lua_State *L) {
  int t = lua_type(L, 2);
  if (lua_type(L, 1) != LUA_TTABLE) return lunar_type_error(L, 1, "setmetatable", "table");
  if (t != LUA_TNIL && t != LUA_TTABLE) return lunar_type_error(L, 2, "setmetatable", "nil or table");
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    int gc = lua_rawget(L, 2);
    lua_pop(L, 1);
    if (gc != LUA_TNIL) return luaL_error(L, "setmetatable: __gc metamethods are not allowed in the sandbox");
  }
  return original(L);
}

/* collectgarbage("count") only: the other options change when finalizers and collections run. */
static int sandbox_collectgarbage(lua_State *L) {
  if (lua_type(L, 1) == LUA_TSTRING && strcmp(lua_tostring(L, 1), "count") == 0) return original(L);
  if (lua_isnoneornil(L, 1)) return luaL_error(L, "collectgarbage: only 'count' is allowed in the sandbox (got no option)");
  const char *option = luaL_tolstring(L, 1, NULL);
  return luaL_error(L, "collectgarbage: only 'count' is allowed in the sandbox (got '%s')", option);
}

/* load(chunk [, chunkname [, mode [, env]]]) as the base library's, with the sandbox's globals
   (upvalue 2) as default environment. Text only, whatever the mode: a binary chunk can crash the
   VM. The chunk is parsed in mode "t" by the limited load (which uses upvalue 1, the original);
   the caller's mode decides which refusals read as stock Lua's. */
static int sandbox_load(lua_State *L) {
  int n = lua_gettop(L);
  int type = lua_type(L, 1);
  if (type != LUA_TSTRING && type != LUA_TFUNCTION) return lunar_type_error(L, 1, "load", "function");
  if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TSTRING && lua_type(L, 2) != LUA_TNUMBER)
    return lunar_type_error(L, 2, "load", "string");
  if (!lua_isnoneornil(L, 3) && lua_type(L, 3) != LUA_TSTRING && lua_type(L, 3) != LUA_TNUMBER)
    return lunar_type_error(L, 3, "load", "string");
  const char *mode = luaL_optstring(L, 3, "bt");
  int text_allowed = strchr(mode, 't') != NULL;
  if (!text_allowed && type == LUA_TSTRING && lua_tostring(L, 1)[0] != LUA_SIGNATURE[0]) {
    luaL_pushfail(L);
    lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", mode);
    return 2;
  }
  char caller_mode[32]; /* a copy: the original load reuses stack slot 5 for its reader */
  snprintf(caller_mode, sizeof caller_mode, "%s", mode);
  int binary_allowed = strchr(mode, 'b') != NULL;
  lua_settop(L, 4);
  lua_pushliteral(L, "t");
  lua_replace(L, 3);
  if (n < 4) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_replace(L, 4);
  }
  int results = lunar_limited_load(L); /* leaves the function, or fail and the message */
  if (results == 1) {
    if (text_allowed) return 1;
    lua_pop(L, 1);
    luaL_pushfail(L);
    lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", caller_mode);
    return 2;
  }
  const char *message = lua_tostring(L, -1);
  if (message != NULL && strcmp(message, "attempt to load a binary chunk (mode is 't')") == 0) {
    lua_pop(L, 1);
    if (binary_allowed)
      lua_pushliteral(L, "attempt to load a binary chunk (binary chunks are never loaded in the sandbox)");
    else
      lua_pushfstring(L, "attempt to load a binary chunk (mode is '%s')", caller_mode);
  }
  return 2;
}

/* bind_load(env) -> the sandbox's load for the environment env. */
static int bind_load(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, sandbox_load, 2);
  return 1;
}

/* print(...): the values as stock print writes them (luaL_tolstring, tab-separated), handed as one
   string to the host's print function (upvalue 1). */
static int sandbox_print(lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t total = 0;
  for (int i = 1; i <= n; i++) {
    size_t length;
    if (i > 1) luaL_addchar(&b, '\t');
    luaL_tolstring(L, i, &length);
    total += length;
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  lunar_charge(L, (int64_t)(total / PRINT_BYTES_PER_UNIT));
  lua_call(L, 1, 0);
  return 0;
}

/* bind_print(host_print) -> the sandbox's print. */
static int bind_print(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, sandbox_print, 1);
  return 1;
}

/* io.write(...): the strings and numbers, concatenated, handed to the host's print function
   (upvalue 1) as print's are; returns the io table (upvalue 2), where stock returns the file. */
static int sandbox_write(lua_State *L) {
  int n = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t total = 0;
  for (int i = 1; i <= n; i++) {
    int type = lua_type(L, i);
    if (type != LUA_TSTRING && type != LUA_TNUMBER) return lunar_type_error(L, i, "io.write", "string");
    size_t length;
    lua_pushvalue(L, i);
    lua_tolstring(L, -1, &length); /* a number becomes its string, as stock writes it */
    total += length;
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  lunar_charge(L, (int64_t)(total / PRINT_BYTES_PER_UNIT));
  lua_call(L, 1, 0);
  lua_pushvalue(L, lua_upvalueindex(2));
  return 1;
}

/* bind_write(host_print, io) -> the shims' io.write. */
static int bind_write(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  lua_pushcclosure(L, sandbox_write, 2);
  return 1;
}

/* The __close of require's guard {loading, key}: loading[key] = nil. A C function, so that it
   runs even when the module's load stopped on a spent limit, which raises again at every Lua
   instruction: a Lua __close would replace the module's error with its own and leave the module
   marked as loading for ever. */
static int unmark(lua_State *L) {
  if (lua_type(L, 1) != LUA_TTABLE) return 0;
  if (lua_rawgeti(L, 1, 1) != LUA_TTABLE) return 0;
  lua_rawgeti(L, 1, 2);
  lua_pushnil(L);
  lua_rawset(L, -3);
  return 0;
}

static void set_closure(lua_State *L, const char *global, lua_CFunction f, const char *name) {
  lua_getglobal(L, global);
  if (lua_tocfunction(L, -1) == NULL) luaL_error(L, "lunar: %s is no C function", global);
  lua_pushcclosure(L, f, 1);
  lua_setfield(L, -2, name);
}

static int push_kit_worker(lua_State *L) {
  lua_createtable(L, 0, 6);
  set_closure(L, "setmetatable", sandbox_setmetatable, "setmetatable");
  set_closure(L, "collectgarbage", sandbox_collectgarbage, "collectgarbage");
  lua_getglobal(L, "load"); /* the limited load: its upvalue 1 is the base library's */
  if (lua_getupvalue(L, -1, 1) == NULL || lua_tocfunction(L, -1) == NULL) luaL_error(L, "lunar: load is not the limited load");
  lua_pushcclosure(L, bind_load, 1);
  lua_setfield(L, -3, "bind_load");
  lua_pop(L, 1);
  lua_pushcfunction(L, bind_print);
  lua_setfield(L, -2, "bind_print");
  lua_pushcfunction(L, bind_write);
  lua_setfield(L, -2, "bind_write");
  lua_pushcfunction(L, unmark);
  lua_setfield(L, -2, "unmark");
  return 1;
}

int lunar_push_sandbox_kit(lua_State *L) {
  if (!lua_checkstack(L, 2)) return LUA_ERRMEM;
  lua_pushcfunction(L, push_kit_worker);
  return lua_pcall(L, 0, 1, 0);
}
