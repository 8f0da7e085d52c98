#ifndef LUNAR_CLUA_BENCH_H
#define LUNAR_CLUA_BENCH_H

#include <lua.h>

/*
 * The C half of the benchmarks' journal floor (LuaBridgeBench's JournalFloorBaseline): the least a
 * host with Lunar's guarantees runs per action, in its cheapest form. C, because a refused stale
 * proxy raises a Lua error, and only C may raise (see CLuaShim.h).
 */

/* The running call: its root proxy (any other is stale) and its journal's length. */
typedef struct lunar_floor_call {
  const void *root;
  lua_Integer count;
} lunar_floor_call;

/* Pushes the metatable of a call's root proxy over the state table at `state`: an __index that
   reads through, a __newindex that journals (table, key, old value, path) into a reused journal
   and then writes; both refuse a proxy other than call->root. `call` must outlive the state. */
void lunar_floor_push_metatable(lua_State *L, int state, lunar_floor_call *call);

/* The budget's count hook; the measured reducer never exhausts a budget, so it only has to run. */
void lunar_floor_hook(lua_State *L, lua_Debug *ar);

/* Bytes the process's allocator has handed out and not taken back (malloc's own count: glibc's
   mallinfo2, macOS's zone statistics); -1 where neither is known. */
long long lunar_bench_heap_bytes(void);

#endif
