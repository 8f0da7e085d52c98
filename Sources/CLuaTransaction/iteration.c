#include "transaction.h"

/*
 * Iterating state proxies: `#`, `pairs` and the sandbox's `next` see the real table of a live
 * proxy, tables read as proxies (proxies.c).
 */

int txn_len(lua_State *L) {
  lua_settop(L, 1);
  lua_getmetatable(L, 1);        /* 2 */
  lua_rawgeti(L, 2, MT_CONTEXT); /* 3 */
  if (!txn_push_real(L, txn_at(L, 3), 3, 2, 1)) {
    lua_pushliteral(L, "#");
    return txn_stale(L, 3, 4);
  }
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
  return 1;
}

int txn_next(lua_State *L) {
  lua_settop(L, 2);
  int mt = txn_proxy_metatable(L, 1); /* 3 */
  if (mt == 0) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
  }
  lua_rawgeti(L, mt, MT_CONTEXT); /* 4 */
  lunar_txn *t = txn_at(L, 4);
  if (!txn_push_real(L, t, 4, mt, 1)) { /* 5 */
    lua_pushliteral(L, "pairs");
    return txn_stale(L, 4, 5);
  }
  lua_pushvalue(L, 2);
  if (!lua_next(L, 5)) {
    lua_pushnil(L);
    return 1;
  }
  /* 6: the key, 7: the value */
  if (lua_type(L, 7) == LUA_TTABLE) {
    txn_push_child(L, t, 4, 7, mt, 1, 6);
    lua_replace(L, 7);
    lua_settop(L, 7);
  }
  return 2;
}

int txn_pairs(lua_State *L) {
  lua_settop(L, 1);
  lua_getmetatable(L, 1);        /* 2 */
  lua_rawgeti(L, 2, MT_CONTEXT); /* 3 */
  if (!txn_push_real(L, txn_at(L, 3), 3, 2, 1)) {
    lua_pushliteral(L, "pairs");
    return txn_stale(L, 3, 4);
  }
  lua_pushcfunction(L, txn_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}
