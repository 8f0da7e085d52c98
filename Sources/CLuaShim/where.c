#include "internal.h"

/*
 * Where Lua code is: a function's definition, a line of the call stack. Plain C functions the host
 * hands to its own Lua (errors and effects name the author's `file:line`); they only read debug
 * information, which neither allocates nor raises, until the answer is pushed.
 */

static int push_location(lua_State *L, const lua_Debug *info, int line) {
  if (line <= 0) {
    lua_pushliteral(L, "?");
    return 1;
  }
  lua_pushfstring(L, "%s:%d", info->short_src, line);
  return 1;
}

int lunar_where_defined(lua_State *L) {
  lua_Debug info;
  if (lua_type(L, 1) != LUA_TFUNCTION) {
    lua_pushliteral(L, "?");
    return 1;
  }
  lua_settop(L, 1);
  if (!lua_getinfo(L, ">S", &info)) info.linedefined = 0; /* ">" pops the function */
  return push_location(L, &info, info.linedefined);
}

int lunar_where_called(lua_State *L) {
  lua_Debug info;
  lua_Integer level = luaL_checkinteger(L, 1);
  if (level < 0 || level > 1000000 || !lua_getstack(L, (int)level, &info) || !lua_getinfo(L, "Sl", &info))
    info.currentline = 0;
  return push_location(L, &info, info.currentline);
}
