#include <stdlib.h>
#include <string.h>
#include "internal.h"

const char lunar_key_array_marker = 0;
const char lunar_key_traceback = 0;
const char lunar_key_errortext = 0;
const char lunar_key_hostfn_meta = 0;
const char lunar_key_raise_marker = 0;

lunar_host *lunar_host_of(lua_State *L) {
  void *ud = NULL;
  lua_getallocf(L, &ud);
  return (lunar_host *)ud;
}

lua_State *lunar_newstate(lunar_host *host) {
  return lua_newstate(lunar_alloc, host);
}

static int hostfn_gc(lua_State *L);

static int openlibs_worker(lua_State *L) {
  static const luaL_Reg libs[] = {
    {LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string},
    {LUA_TABLIBNAME, luaopen_table},   {LUA_MATHLIBNAME, luaopen_math},
    {LUA_UTF8LIBNAME, luaopen_utf8},   {LUA_COLIBNAME, luaopen_coroutine},
    {NULL, NULL}};
  for (const luaL_Reg *lib = libs; lib->func; lib++) {
    luaL_requiref(L, lib->name, lib->func, 1);
    lua_pop(L, 1);
  }
  /* Library functions whose work is not bounded by their input count it against the limits. */
  lunar_open_limited_libraries(L);
  /* Coroutines a script makes are timed from their first instruction. */
  lunar_open_hooked_coroutines(L);
  /* Reading files is no business of a script, trusted or not. */
  lua_pushnil(L);
  lua_setglobal(L, "dofile");
  lua_pushnil(L);
  lua_setglobal(L, "loadfile");
  /* Reading a traceback or error text later must not allocate: create the slots now. */
  lua_pushboolean(L, 0);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_traceback);
  lua_pushboolean(L, 0);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_errortext);
  /* Marks tables pushed for empty arrays, so that they read back as arrays. */
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "lunar.array");
  lua_setfield(L, -2, "__name");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_array_marker);
  /* The strings the decoder's cache holds (program.c), one per slot: made whole now, so that
     replacing one never allocates; at a registry index, the quickest slot to read. */
  lua_createtable(L, LUNAR_STRING_SLOTS, 0);
  for (int i = 1; i <= LUNAR_STRING_SLOTS; i++) {
    lua_pushboolean(L, 0);
    lua_rawseti(L, -2, i);
  }
  lunar_host_of(L)->strings = luaL_ref(L, LUA_REGISTRYINDEX);
  /* Host functions are closures over a userdata whose __gc releases the Swift side. */
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, hostfn_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushliteral(L, "lunar.hostfunction");
  lua_setfield(L, -2, "__name");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lunar_key_hostfn_meta);
  return 0;
}

int lunar_openlibs(lua_State *L) {
  if (!lua_checkstack(L, 2)) return LUA_ERRMEM;
  lua_pushcfunction(L, openlibs_worker);
  return lua_pcall(L, 0, 0, 0);
}

/* ---- host functions ---- */

typedef struct lunar_hostfn {
  void *context;
} lunar_hostfn;

static int hostfn_gc(lua_State *L) {
  lunar_hostfn *fn = (lunar_hostfn *)lua_touserdata(L, 1);
  if (fn != NULL && fn->context != NULL) {
    void *context = fn->context;
    fn->context = NULL;
    lunar_host_of(L)->release(context);
  }
  return 0;
}

int lunar_trampoline(lua_State *L) {
  lunar_hostfn *fn = (lunar_hostfn *)lua_touserdata(L, lua_upvalueindex(1));
  if (fn == NULL || fn->context == NULL) return luaL_error(L, "host function is no longer available");
  lunar_host *h = lunar_host_of(L);
  int nresults = 0;
  int status = h->call(L, fn->context, &nresults);
  switch (status) {
    case LUNAR_HOST_RETURN:
      /* NB: a host function may take long (Swift work, a blocking call): the clock is read after
         each one, so a loop of a few instructions around it cannot hide from the limit. */
      lunar_check_deadline(L);
      return nresults;
    case LUNAR_HOST_YIELD: {
      int below = lua_gettop(L) - nresults;
      h->host_yielded = 1;
      extern int lunar_resume_k(lua_State *, int, lua_KContext);
      return lua_yieldk(L, nresults, (lua_KContext)below, lunar_resume_k);
    }
    case LUNAR_HOST_ERROR_WHERE:
      if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
      }
      return lua_error(L);
    default:
      return lua_error(L);
  }
}

/* Runs when a coroutine suspended in a yielding host function is resumed. Its stack holds what was
   below the yielded values, then the resume values. A leading raise marker means "raise the next
   value here", which is how the host fails an asynchronous call. */
int lunar_resume_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  int below = (int)ctx;
  lunar_host_of(L)->host_yielded = 0;
  if (lua_gettop(L) > below && lua_touserdata(L, below + 1) == (void *)&lunar_key_raise_marker) {
    lua_settop(L, below + 2);
    if (lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return lua_gettop(L) - below;
}

static int pushhostfunction_worker(lua_State *L) {
  void **context = (void **)lua_touserdata(L, 1);
  lunar_hostfn *fn = (lunar_hostfn *)lua_newuserdatauv(L, sizeof(lunar_hostfn), 0);
  fn->context = NULL;
  lua_pushcclosure(L, lunar_trampoline, 1); /* may raise: the context is not ours yet */
  lua_getupvalue(L, -1, 1);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lunar_key_hostfn_meta);
  lua_setmetatable(L, -2); /* cannot raise */
  lua_pop(L, 1);
  fn->context = *context; /* from here on, __gc releases it */
  *context = NULL;
  return 1;
}

int lunar_pushhostfunction(lua_State *L, void *context) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  void *slot = context;
  lua_pushcfunction(L, pushhostfunction_worker);
  lua_pushlightuserdata(L, &slot);
  return lua_pcall(L, 1, 1, 0);
}

void lunar_ensure_hook(lua_State *L) { lunar_ensure_hook_of(lunar_host_of(L), L); }
