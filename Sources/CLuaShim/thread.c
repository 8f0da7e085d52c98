#include <string.h>
#include "internal.h"

static int newthread_worker(lua_State *L) {
  int fref = (int)lua_tointeger(L, 1);
  lua_State **thread = (lua_State **)lua_touserdata(L, 2);
  int *ref = (int *)lua_touserdata(L, 3);
  lua_settop(L, 0);
  lua_State *co = lua_newthread(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, fref);
  if (lua_type(L, -1) != LUA_TFUNCTION) return luaL_error(L, "lunar: a thread needs a function");
  lua_xmove(L, co, 1);
  *ref = luaL_ref(L, LUA_REGISTRYINDEX); /* pops the thread, now anchored in the registry */
  *thread = co;
  return 0;
}

int lunar_newthread(lua_State *L, int fref, lua_State **thread, int *ref) {
  if (!lua_checkstack(L, 4)) return LUA_ERRMEM;
  lua_pushcfunction(L, newthread_worker);
  lua_pushinteger(L, fref);
  lua_pushlightuserdata(L, thread);
  lua_pushlightuserdata(L, ref);
  return lua_pcall(L, 3, 0, 0);
}

int lunar_resume(lua_State *L, lua_State *co, int nargs, int raise_first, int *count) {
  lunar_host *h = lunar_host_of(L);
  *count = 0;
  if (!lua_checkstack(co, nargs + 2)) {
    lua_pop(L, nargs);
    return LUA_ERRMEM;
  }
  lua_xmove(L, co, nargs);
  if (raise_first) {
    lua_pushlightuserdata(co, (void *)&lunar_key_raise_marker);
    lua_rotate(co, -(nargs + 1), 1);
    nargs++;
  }
  h->host_yielded = 0;
  lunar_budget_enter(h, co);
  int status = lua_resume(co, L, nargs, count);
  status = lunar_budget_leave(h, status);
  if (status != LUA_OK && status != LUA_YIELD) *count = 1;
  return status;
}

static int thread_traceback_worker(lua_State *L) {
  lua_State *co = (lua_State *)lua_touserdata(L, 1);
  luaL_traceback(L, co, NULL, 0);
  return 1;
}

int lunar_thread_traceback(lua_State *L, lua_State *co) {
  if (!lua_checkstack(L, 2)) return LUA_ERRMEM;
  lua_pushcfunction(L, thread_traceback_worker);
  lua_pushlightuserdata(L, co);
  return lua_pcall(L, 1, 1, 0);
}

void lunar_locate_thread_error(lua_State *co) {
  lunar_host *h = lunar_host_of(co);
  lua_Debug ar;
  h->error_line = 0;
  h->error_source[0] = '\0';
  for (int level = 0; lua_getstack(co, level, &ar); level++) {
    if (lua_getinfo(co, "Sl", &ar) && ar.currentline > 0) {
      h->error_line = ar.currentline;
      strncpy(h->error_source, ar.short_src, sizeof h->error_source - 1);
      h->error_source[sizeof h->error_source - 1] = '\0';
      return;
    }
  }
}

int lunar_closethread(lua_State *L, lua_State *co) {
  lunar_host *h = lunar_host_of(L);
  lunar_budget_enter(h, co);
  int status = lua_resetthread(co);
  return lunar_budget_leave(h, status);
}
