#include "internal.h"

/*
 * C extensions: another target's own C code (a module's hot path) entering Lua through the same
 * protected, budgeted door as every host call, with a push-program value decoded inside it.
 */

typedef struct call_c_job {
  lua_CFunction f;
  void *context;
  lunar_reader value;
  lunar_host *host;
} call_c_job;

static int call_c_worker(lua_State *L) {
  call_c_job *job = (call_c_job *)lua_touserdata(L, 1);
  int decoding = job->value.p != NULL && job->value.p < job->value.end;
  /* NB: the cache's strings below the call: what it returns is what is above them. */
  if (decoding) lunar_decode_begin(L, &job->value, job->host);
  int base = lua_gettop(L);
  lua_pushcfunction(L, job->f);
  lua_pushlightuserdata(L, job->context);
  if (decoding) lunar_decode_value(L, &job->value, 0);
  else lua_pushnil(L);
  lua_call(L, 2, LUA_MULTRET);
  return lua_gettop(L) - base;
}

int lunar_call_c(lunar_host *h, lua_State *L, lua_CFunction f, void *context, const unsigned char *program,
                 size_t length, int budgeted, int *count) {
  int top = lua_gettop(L);
  *count = 0;
  int handler = lunar_open_entry(h, L, 5);
  if (handler == 0) return LUA_ERRMEM;
  call_c_job job = {f, context, {program, program == NULL ? NULL : program + length, NULL, 0}, h};
  /* NB: a light C function and a light userdata never allocate: nothing here needs protection. */
  lua_pushcfunction(L, call_c_worker);
  lua_pushlightuserdata(L, &job);
  int status = budgeted ? lunar_budgeted_pcall(h, L, 1, LUA_MULTRET, handler)
                        : lua_pcall(L, 1, LUA_MULTRET, handler);
  lunar_close_entry(L, handler);
  *count = lua_gettop(L) - top;
  return status;
}

int lunar_budget_pause(lua_State *L) {
  lunar_host *h = lunar_host_of(L);
  if (!lunar_budget_on(h) || h->untimed) return 0;
  h->untimed = 1;
  /* NB: trusted code runs at full speed even in an armed call; the watchdog can still set the
     hook (a deadline), which then reads the clock but counts nothing. */
  if (lua_gethook(L) == lunar_count_hook) lua_sethook(L, NULL, 0, 0);
  return 1;
}

int lunar_budget_resume(lua_State *L) {
  lunar_host *h = lunar_host_of(L);
  if (!lunar_budget_on(h) || !h->untimed) return 1;
  h->untimed = 0;
  lunar_ensure_hook_of(h, L);
  return 0;
}
