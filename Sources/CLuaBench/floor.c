#include <lauxlib.h>
#include "CLuaBench.h"

static lunar_floor_call *call_of(lua_State *L, int upvalue) {
  return (lunar_floor_call *)lua_touserdata(L, lua_upvalueindex(upvalue));
}

/* __index(proxy, key); upvalues: the state table, the call */
static int floor_index(lua_State *L) {
  if (lua_topointer(L, 1) != call_of(L, 2)->root) return luaL_error(L, "state used outside its reducer call");
  lua_settop(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  return 1;
}

/* __newindex(proxy, key, value); upvalues: the state table, the journal, the call */
static int floor_newindex(lua_State *L) {
  lunar_floor_call *call = call_of(L, 3);
  if (lua_topointer(L, 1) != call->root) return luaL_error(L, "state used outside its reducer call");
  int real = lua_upvalueindex(1), journal = lua_upvalueindex(2);
  lua_Integer n = call->count;
  lua_settop(L, 3);
  lua_pushvalue(L, real);
  lua_rawseti(L, journal, n + 1);
  lua_pushvalue(L, 2);
  lua_rawseti(L, journal, n + 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, real);
  lua_rawseti(L, journal, n + 3);
  lua_pushboolean(L, 1); /* the path: the root */
  lua_rawseti(L, journal, n + 4);
  call->count = n + 4;
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, real);
  return 0;
}

void lunar_floor_push_metatable(lua_State *L, int state, lunar_floor_call *call) {
  state = lua_absindex(L, state);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, state);
  lua_pushlightuserdata(L, call);
  lua_pushcclosure(L, floor_index, 2);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, state);
  lua_createtable(L, 64, 0); /* the journal, reused: each call writes from 1 again */
  lua_pushlightuserdata(L, call);
  lua_pushcclosure(L, floor_newindex, 3);
  lua_setfield(L, -2, "__newindex");
}

void lunar_floor_hook(lua_State *L, lua_Debug *ar) {
  (void)L;
  (void)ar;
}
