#ifndef LUNAR_TRANSACTION_H
#define LUNAR_TRANSACTION_H

#include "CLuaTransaction.h"

/*
 * Shared by the files of the transaction: the context and its user values, and the layout of a
 * proxy's metatable, and the functions the files share. Defined here once; the prelude never sees
 * them (it calls the functions of `core`, library.c).
 */

#define TXN_NAME "lunar.transaction"

/* Slots of the report's cache of interned ids (a power of two). */
#define LUNAR_TXN_INTERN_SLOTS 64

struct lunar_txn {
  int active;              /* a reducer call runs: proxies answer */
  int open;                /* a call's writes are neither committed nor rolled back */
  int routing;             /* the call runs a composed feature's routing (see `flagged`) */
  int flagged;             /* a composed feature's call made a write that can add or remove a
                              child: inside a table at the root, or at the root a table put or
                              removed, or a new key, or a write of a key `id` anywhere (a child's
                              identity); until then its routing need not check its containers */
  lua_Integer generation;  /* the running call's number: a proxy of another call is stale */
  lua_Integer count;       /* journal slots in use */
  lua_Integer shallow;     /* writes of the call at a path of at most one key */
  lua_Integer proxies;     /* nested proxies cached by the call (the cache is emptied after it) */
  lua_Integer loose;       /* effects built during the call and not yet returned or combined
                              (lunar/_loose.lua): while there are some, the call ends through `finish` */
  const void *root;        /* the call's root proxy: the only live one */
  const void *child;       /* composition's row proxy of the call (see childProxy), outside the cache */
  lua_Integer child_generation;
  int self;                /* a registry reference to the context's userdata */
  /* interned keys and paths, for the host's caches (see lunar_txn_change) */
  lua_Integer epoch;
  int interned;
  /* the ids of keys and paths interned this epoch, by the object's address (see report.c) */
  const void *intern_object[LUNAR_TXN_INTERN_SLOTS];
  int intern_id[LUNAR_TXN_INTERN_SLOTS];
  const void *id_key;      /* the interned string "id" (kept alive by UV_IDKEY) */
  /* the last call's report */
  lunar_txn_change *changes;
  int capacity;
};

/* The context's user values. */
enum {
  UV_JOURNAL = 1,  /* the journal table (entries: see CLuaTransaction.h) */
  UV_PROXIES,      /* the running call's nested proxies: real table -> proxy, and proxy -> real table */
  UV_PATHS,        /* the running call's nested proxies: proxy -> its keys from the root */
  UV_NESTED,       /* the metatable all nested proxies share */
  UV_CHILD,        /* the real table of composition's row proxy (t->child) */
  UV_CHILDPATH,    /* its path */
  UV_MARKER,       /* the empty-array marker metatable (a table with it is plain state too) */
  UV_ROOTS,        /* resident state table -> its root proxy's metatable (weak keys) */
  UV_ROOTPATH,     /* the path marker of the root's own fields */
  UV_HANDLES,      /* effect handles: number -> what the effect runs */
  UV_PENDING,      /* the handles the open transaction registered (an array) */
  UV_FINISH,       /* the prelude's finish(result): the effect as data */
  UV_STALE,        /* the prelude's stale(key): raises "state used outside its reducer call" */
  UV_INTERNED,     /* key or path -> id, for the current epoch */
  UV_DERIVED,      /* the prelude's tables derived from state (see CLuaTransaction.h) */
  UV_IDKEY,        /* the string "id" */
  UV_CHILDPATHS,   /* a path -> { key -> the path of its child at key } (weak keys; see push_child) */
  UV_WEAKVALUES,   /* the metatable of UV_CHILDPATHS's inner tables (weak values) */
  UV_MADE,         /* the running call's nested proxies, in the order made (what a call forgets) */
  UV_COUNT = UV_MADE
};

/* A proxy is an empty table (so `next` and raw access find nothing in it). A root proxy's metatable
   (one per resident state table) carries, in its array part, the real table and the root's path
   marker; a nested proxy's metatable is shared, and its real table and path are found in the
   call's tables (UV_PROXIES, UV_PATHS), which each call empties: a proxy of another call finds
   nothing, and is stale. */
enum {
  MT_REAL = 1,     /* a root proxy's state table (nil in the nested proxies' metatable) */
  MT_PATH,         /* the root's path marker (nil in the nested proxies' metatable) */
  MT_CONTEXT,      /* the transaction context */
  MT_SIZE = MT_CONTEXT
};

static inline lunar_txn *txn_at(lua_State *L, int idx) { return (lunar_txn *)lua_touserdata(L, idx); }

/* proxies.c */
/* If the value at idx is a state proxy of this module, pushes its metatable and returns the
   metatable's index; otherwise pushes nothing and returns 0. Never runs a script's code. */
int txn_proxy_metatable(lua_State *L, int idx);
/* Pushes the proxy of the table at `real` (its path at `path`) for the running call: the call's
   own if it made one, else a new one. */
void txn_proxy_of(lua_State *L, lunar_txn *t, int context, int real, int path);
/* Pushes composition's row proxy of the table at `real` (its path at `path`) for the running call:
   one per call, found without the call's tables (the commonest action of a list: one row's). */
void txn_child_proxy(lua_State *L, lunar_txn *t, int context, int real, int path);
/* Pushes the root proxies' metatable of the state table at `real` (made once, kept weakly). */
void txn_root_metatable(lua_State *L, lunar_txn *t, int context, int real);
/* Pushes the metatable nested proxies share. */
void txn_push_nested_metatable(lua_State *L, int context);
/* With the metatable of the proxy at `idx` at `mt`: pushes its real table and returns 1 when it is
   live in the running call; pushes nothing and returns 0 when it is stale. */
int txn_push_real(lua_State *L, lunar_txn *t, int context, int mt, int idx);
/* The same for its path: the root's marker (and returns 1) or its keys (and returns 0). */
int txn_push_path(lua_State *L, int context, int mt, int idx);
/* Empties the table at idx in place (its size stays). Never allocates, never raises. */
void txn_clear(lua_State *L, int idx);
/* Empties the call's proxies (at the end of a call that made some). */
void txn_forget_proxies(lua_State *L, lunar_txn *t, int context);
/* Raises the prelude's "state used outside its reducer call" error, naming the value at `what`. */
int txn_stale(lua_State *L, int context, int what);
/* Pushes the proxy of the table at `value`, read at `key` of the live proxy at `parent` (whose
   metatable is at `mt`). */
void txn_push_child(lua_State *L, lunar_txn *t, int context, int value, int mt, int parent, int key);

/* iteration.c: the proxies' `#` and `pairs`, and the sandbox's `next` */
int txn_len(lua_State *L);
int txn_pairs(lua_State *L);
/* The sandbox's `next`: state proxies iterate their table (tables read as proxies). */
int txn_next(lua_State *L);

/* writes.c */
/* Checks, journals and makes the write of the value at 3 at the key at 2 of the proxy at 1, whose
   real table is at `real` and path at `path` (stack slots or upvalues). Raises a refusal. */
int txn_write(lua_State *L, lunar_txn *t, int context, int real, int path);

/* transaction.c: the transaction's entries in `core` (upvalue 1: the context) */
/* reduce(fn, state, action, deps) -> finish(result)'s results, the transaction left open */
int txn_reduce_call(lua_State *L);
/* bind(fn, deps [, instance]) -> bound(state, action) */
int txn_bind(lua_State *L);
/* commit() and rollback() of the open transaction */
int txn_commit_call(lua_State *L);
int txn_rollback_call(lua_State *L);

/* routing.c: composition's functions (upvalue 1: the context) */
/* body(keys, reducers, paths, indexes, descriptions, none, running, origin, settle, find, wrap,
   route, enter, dismiss, check, merge) -> a composed feature's reducer */
int txn_body(lua_State *L);
/* where() -> depth, origin: the composed features' routings running, the innermost's `file:line` */
int txn_routing_where(lua_State *L);

/* report.c */
/* Fills `out` with the running call's changes; pushes the values the host reads off the stack. */
void txn_report(lua_State *L, lunar_txn *t, int context, lunar_txn_outcome *out);

/* values.c: what state can hold beyond its types, the values the host can write as JSON */
/* Where a value is being stored, for the messages of refusals: `path` the slot of the keys of the
   table written, `key` the slot of the key written, and `inner[0 ..< depth]` the slots of the keys
   inside a table being stored, down to the one being checked. */
typedef struct {
  int path;
  int key;
  int depth;
  const int *inner;
} txn_where;
/* The offset of the first byte of `text` that does not start valid UTF-8 (RFC 3629, the rule of
   the host's JSON codec), or -1 when all of it is valid. */
ptrdiff_t txn_utf8_invalid(const char *text, size_t length);
/* Pushes the path `state.todos[3].title` of `w`'s table and its first `count` keys after it. */
void txn_push_where(lua_State *L, const txn_where *w, int count);
/* These raise the refusal of the value at `value` (NaN or an infinity; a string not UTF-8 from
   byte `offset`), of the key at `key` (not UTF-8; a float), stored where `w` says. */
void txn_refuse_number(lua_State *L, int value, const txn_where *w);
void txn_refuse_string(lua_State *L, int value, ptrdiff_t offset, const txn_where *w);
void txn_refuse_key(lua_State *L, int key, ptrdiff_t offset, const txn_where *w);
void txn_refuse_float_key(lua_State *L, int key, const txn_where *w);
/* Whether the table at `table` holds the twin of the key at `key`: the string "3" for the integer
   3, or the integer for the string, which JSON writes as one key. */
int txn_key_has_twin(lua_State *L, int table, int key);
/* Raises the refusal of the key at `key`, whose twin its table holds, stored where `w` says. */
void txn_refuse_twin_key(lua_State *L, int key, const txn_where *w);

#endif
