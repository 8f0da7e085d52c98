#ifndef LUNAR_CLUATRANSACTION_H
#define LUNAR_CLUATRANSACTION_H

/*
 * The reducer transaction of LuaFeatures: what one action does to a feature's state, as a
 * transaction the host opens and closes. The whole contract, defined here once:
 *
 *   lunar_txn_push_library  once per VM: the transaction context, and `core`, the library the Lua
 *                           prelude receives (its functions: transaction.h, library.c)
 *   lunar_txn_reduce        begin: run one action through a bound reducer on a state table, its
 *                           writes journaled, and fill the report (lunar_txn_outcome) of what
 *                           changed and the effect the reducer described
 *   lunar_txn_commit        keep the writes and close
 *   lunar_txn_rollback      undo the writes, newest first, forget the effects described, and close
 *   lunar_txn_is_open       whether a transaction is open
 *
 * Rules: every lunar_txn_reduce, whether it succeeds or fails, is followed by exactly one
 * lunar_txn_commit or lunar_txn_rollback; beginning while a transaction is open is refused. The
 * layouts the two sides share are defined below and nowhere else: the report (read by Swift) and
 * the journal (handed to the prelude as the table `core.layout`, never as numbers of its own).
 * The prelude's Lua callers (a hot reload's `migrate`) use the same operations through `core`:
 * `reduce`, `commit`, `rollback`.
 */

#include <lua.h>
#include <lauxlib.h>
#include <stddef.h>
#include "CLuaShim.h"

/* The transaction context: one per VM, owned by its userdata. Read by Swift between calls. */
typedef struct lunar_txn lunar_txn;

/* ---- the report: what a call did, read by the host right after lunar_txn_reduce ---- */

/* What changed at one key. */
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

/* The whole report. */
typedef struct lunar_txn_outcome {
  int effects;             /* results that describe the effect (0: none): the first results */
  int changes;             /* entries in `change` */
  const lunar_txn_change *change;
  /* A change put or removed a table, or the writes were too many to check: the host plans with
     the changes' covering (a write inside a table another write replaced) in mind. */
  int structural;
  lua_Integer epoch;       /* interned keys and paths keep their ids while this is unchanged */
} lunar_txn_outcome;

/* ---- the operations ---- */

/* Makes the transaction context, stores its address in `*context`, and pushes `core`, the C half
   of the prelude (its functions, the journal and the journal's layout). Protected; leaves the
   table (or the error). */
int lunar_txn_push_library(lua_State *L, lunar_txn **context);

/* Begins a transaction: runs one action through a bound reducer (a registry reference to
   `core.bind`'s result) on the state table `state` (a registry reference), the action written as
   a push program of one value, under the instruction budget, and reports what changed in `out`.
   On success `*count` results are left on the stack (the effect's description, then the values
   the changes point at); on failure one error object, and the transaction is still open: the
   host rolls it back. */
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

/* ---- the journal: what rollback undoes, and what the prelude's composition reads ---- */

/* An entry: LUNAR_TXN_STRIDE slots of the journal table (`core.journal`), from 1. At entry `i`
   (1, 5, 9, …): the table written, the key, the value before the write, and the table's path from
   the root (the root's own marker for a field of the root).

   `core.derived` (weak keys) holds what the prelude derives from state tables and keeps across
   calls: a rollback empties it, and so does the commit of a call that did not run a composed
   feature's routing (its writes were never checked). */
enum {
  LUNAR_TXN_STRIDE = 4,
  LUNAR_TXN_TABLE = 0,
  LUNAR_TXN_KEY = 1,
  LUNAR_TXN_OLD = 2,
  LUNAR_TXN_PATH = 3
};

#endif
