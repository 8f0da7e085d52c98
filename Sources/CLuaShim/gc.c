#include "internal.h"

size_t lunar_gc_count(lua_State *L) {
  return (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB);
}

void lunar_gc_collect(lua_State *L) {
  lua_gc(L, LUA_GCCOLLECT);
}
