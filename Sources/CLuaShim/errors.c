#include <string.h>
#include "internal.h"

/* The message handler of lunar_call. It runs where the error happened, before the stack unwinds, so
   it is the only place that can see the failing frame: it records the position (first Lua frame),
   the traceback and, for error objects with __tostring, their text. It returns the error object
   unchanged so that Lua code above (pcall) and the host see what was raised. Allocation failures
   in here make Lua report LUA_ERRERR; the host classifies those from its own flags. */
int lunar_msgh(lua_State *L) {
  lunar_host *h = lunar_host_of(L);
  lua_Debug ar;
  h->error_line = 0;
  h->error_source[0] = '\0';
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
      h->error_line = ar.currentline;
      strncpy(h->error_source, ar.short_src, sizeof h->error_source - 1);
      h->error_source[sizeof h->error_source - 1] = '\0';
      break;
    }
  }
  luaL_traceback(L, L, NULL, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_traceback);
  if (lua_type(L, 1) != LUA_TSTRING && luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
    lua_pop(L, 1);
    luaL_tolstring(L, 1, NULL);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_errortext);
  }
  lua_settop(L, 1);
  return 1;
}

/* The slots exist since lunar_openlibs, so resetting them to false never allocates. */
void lunar_take_traceback(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lunar_key_traceback);
  lua_pushboolean(L, 0);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_traceback);
}

void lunar_take_errortext(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lunar_key_errortext);
  lua_pushboolean(L, 0);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_errortext);
}

int lunar_is_memory_error(lua_State *L, int idx) {
  size_t n = 0;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  const char *s = lua_tolstring(L, idx, &n);
  return n == 17 && memcmp(s, "not enough memory", 17) == 0;
}
