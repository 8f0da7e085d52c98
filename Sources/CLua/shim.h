#ifndef LUNAR_CLUA_SHIM_H
#define LUNAR_CLUA_SHIM_H

#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

/* Lua's function-like macros are invisible to Swift; these wrap the ones Lunar uses. */

static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *clua_tostring(lua_State *L, int i) { return lua_tostring(L, i); }
static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
  return lua_pcall(L, nargs, nresults, msgh);
}

#endif
