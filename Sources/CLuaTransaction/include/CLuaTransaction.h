#ifndef LUNAR_CLUATRANSACTION_H
#define LUNAR_CLUATRANSACTION_H

/*
 * The reducer transaction of LuaFeatures, in C: the state proxies a reducer writes through, the
 * journal of its writes, the reducer call, and the report of what changed.
 *
 * One transaction context per VM (a userdata made by lunar_txn_push_library) holds everything a
 * call needs; its layouts are defined here once: the journal's entries (below) and the proxies'
 * metatables (transaction.h). The Lua prelude receives the journal's layout as the table
 * `core.layout`, never as numbers of its own; Swift reads this header.
 *
 * A transaction is explicit: lunar_txn_reduce begins it and runs the reducer; its writes then stay
 * journaled until the host calls lunar_txn_commit (keep them) or lunar_txn_rollback (undo them).
 * Beginning a transaction while the last one is open is refused: the host must close each one.
 */

#include <lua.h>
#include <lauxlib.h>
#include <stddef.h>
#include "CLuaShim.h"

/* A journal entry: LUNAR_TXN_STRIDE slots of the journal table, from 1. At entry `i` (1, 5,
   9, …): the table written, the key, the value before the write, and the table's path from the
   root (the root's own marker for a field of the root).

   The library also hands the prelude a table `derived` (weak keys) for what it derives from state
   tables and keeps across calls: a rollback empties it, and so does the commit of a call that did
   not run a composed feature's routing (its writes were never checked). */
enum {
  LUNAR_TXN_STRIDE = 4,
  LUNAR_TXN_TABLE = 0,
  LUNAR_TXN_KEY = 1,
  LUNAR_TXN_OLD = 2,
  LUNAR_TXN_PATH = 3
};

/* The transaction context: one per VM, owned by its userdata. Read by Swift between calls. */
typedef struct lunar_txn lunar_txn;

/* Pushes the C half of the prelude: a table of functions (see transaction.c) and, as `context`,
   the transaction context, whose address is stored in `*context`. Protected; leaves the table (or
   the error). */
int lunar_txn_push_library(lua_State *L, lunar_txn **context);

/* What changed at one key, as the host reads it after a call. */
typedef struct lunar_txn_change {
  int path;                /* 0: the root; > 0: an interned path (its keys: see `path_slot`) */
  int path_slot;           /* > 0: the path is new to the host, pushed at this slot of the results */
  int key_type;            /* LUA_TSTRING (`key` is interned) or LUA_TNUMBER (`key_integer`) */
  int key;                 /* the interned id of a string key */
  const char *key_string;  /* a string key's bytes, valid while the key is interned */
  size_t key_length;
  lua_Integer key_integer;
  int value_type;          /* LUA_TNIL, LUA_TBOOLEAN, LUA_TNUMBER, LUA_TSTRING, or LUA_TTABLE */
  int value_slot;          /* for LUA_TTABLE: the value is pushed at this slot of the results */
  int is_integer;
  int boolean;
  lua_Integer integer;
  lua_Number number;
  const char *string;      /* valid until the next call */
  size_t string_length;
} lunar_txn_change;

/* What a call did: read by the host right after lunar_txn_reduce. */
typedef struct lunar_txn_outcome {
  int effects;             /* results that describe the effect (0: none): the first results */
  int changes;             /* entries in `change` */
  const lunar_txn_change *change;
  /* A change put or removed a table, or the writes were too many to check: the host plans with
     the changes' covering (a write inside a table another write replaced) in mind. */
  int structural;
  lua_Integer epoch;       /* interned keys and paths keep their ids while this is unchanged */
} lunar_txn_outcome;

/* Runs one action through a bound reducer (a registry reference to `core.bind`'s result) on the
   state table `state` (a registry reference), the action written as a push program of one value:
   begins the transaction, calls the reducer under the instruction budget, and reports what
   changed in `out`. On success `*count` results are left on the stack (the effect, then the
   values the changes point at); on failure one error object, and the transaction is still open:
   the host rolls it back. */
int lunar_txn_reduce(lunar_host *h, lua_State *L, lunar_txn *t, int bound, int state,
                     const unsigned char *action, size_t length, lunar_txn_outcome *out, int *count);

/* Keeps the writes of the open transaction and closes it. Cannot raise. */
void lunar_txn_commit(lua_State *L, lunar_txn *t);

/* Undoes every write of the open transaction, newest first, forgets the effects it described,
   and closes it. Protected, outside the instruction budget and the memory ceiling (undoing gives
   back what the call took). Leaves nothing (or the error). */
int lunar_txn_rollback(lunar_host *h, lua_State *L, lunar_txn *t);

/* Whether a transaction is open. */
int lunar_txn_is_open(const lunar_txn *t);

#endif
