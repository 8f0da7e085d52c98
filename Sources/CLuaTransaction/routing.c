#include "transaction.h"

/*
 * A composed feature's body, run for an action: its entries in order, each `lunar.reduce` with
 * every action, each child entry with the actions whose `type` is its key, and the effects they
 * return collected. The prelude (lunar/_compose/init.lua) makes one runner per body and keeps all the
 * rest: the call's bookkeeping before and after, finding an element it has no cache for, the
 * other kinds of children, wrapping a child's effect, every error and its message.
 *
 * Why C: the loop runs for every action of every composed feature, and in Lua each step of it
 * (an entry's fields, a call into C for the row, another for each of the author's reducers) cost
 * more than the author's own reducers did. It never runs a script's code itself: every read is
 * raw, ids and types are compared raw, and the author's reducers run under the budget.
 */

#define UP(i) lua_upvalueindex(i)

/* The runner's upvalues (see txn_body). */
enum {
  BODY_CONTEXT = 1,
  BODY_KEYS,         /* entry -> its key, or false for a lunar.reduce */
  BODY_REDUCERS,     /* entry -> the function it runs (a child's reduce, or lunar.reduce's) */
  BODY_PATHS,        /* entry -> a forEach's row paths by index, or false */
  BODY_INDEXES,      /* composition's caches: list -> { [id] = index } */
  BODY_DESCRIPTIONS, /* effect handle -> its description */
  BODY_NONE,         /* fx.none (the handle) */
  BODY_RUNNING,      /* { instance }: the data of the instance whose call runs (lunar.push's ids) */
  BODY_ORIGIN,       /* this feature's `file:line`, for its errors (nil when unknown) */
  BODY_SETTLE,       /* settle(entry, result, description) -> effect or nil (raises if not one) */
  BODY_FIND,         /* find(entry, state, proxied, action, atRoot) -> sub, id, element (raises) */
  BODY_WRAP,         /* wrap(entry, result, id) -> a row's effect, wrapped */
  BODY_ROUTE,        /* route(entry, state, real, action, deps, dismissals) -> effect, dismissals */
  BODY_ENTER,        /* enter(real): the stacks made current (false without stacks) */
  BODY_DISMISS,      /* dismiss(dismissals, state, real): dismissed children removed */
  BODY_CHECK,        /* check(real, effects, count) -> effects, count (false without containers) */
  BODY_MERGE,        /* merge(effects) -> one effect */
  BODY_TYPEKEY,      /* the strings "type", "action" and "id", pushed without a lookup */
  BODY_ACTIONKEY,
  BODY_IDKEY,
  BODY_ENTRIES,      /* the entries' kinds and keys, for the loop (body_entries) */
  BODY_UPVALUES = BODY_ENTRIES
};


/* Finds the row of a forEach list at the root for `action` (`{ type = key, id = …, action = sub }`)
   through composition's cache (`indexes[list][id]` -> index, checked against the row's `id`); the
   row's path from the root is paths[index] (made here when missing). Pushes the child's action,
   the id and the row's proxy and returns 1; pushes nothing and returns 0 when any of it is not so
   (composition then finds the row itself and explains what is wrong). */
static int find_row(lua_State *L, lunar_txn *t, int context, int action, int root, int key, int indexes,
                    int paths) {
  /* NB: the runner checked the action. A script can call a runner itself, with anything as root. */
  if (!t->active || lua_type(L, root) != LUA_TTABLE) return 0;
  int base = lua_gettop(L);
  lua_pushvalue(L, UP(BODY_IDKEY));                                           /* +1: "id" */
  lua_pushvalue(L, UP(BODY_ACTIONKEY));
  if (lua_rawget(L, action) != LUA_TTABLE) goto none;                         /* +2: sub */
  lua_pushvalue(L, UP(BODY_TYPEKEY));
  if (lua_rawget(L, base + 2) != LUA_TSTRING) goto none;
  lua_pop(L, 1);
  lua_pushvalue(L, base + 1);
  if (lua_rawget(L, action) == LUA_TNIL) goto none;                           /* +3: id */
  lua_pushvalue(L, key);
  if (lua_rawget(L, root) != LUA_TTABLE) goto none;                           /* +4: the list */
  lua_pushvalue(L, base + 4);
  if (lua_rawget(L, indexes) != LUA_TTABLE) goto none;                        /* +5: its cache */
  lua_pushvalue(L, base + 3);
  if (lua_rawget(L, base + 5) != LUA_TNUMBER || !lua_isinteger(L, -1)) goto none; /* +6: index */
  lua_Integer index = lua_tointeger(L, -1);
  if (lua_rawgeti(L, base + 4, index) != LUA_TTABLE) goto none;               /* +7: the row */
  lua_pushvalue(L, base + 1);
  lua_rawget(L, base + 7);
  if (!lua_rawequal(L, -1, base + 3)) goto none;
  lua_pop(L, 1);
  /* NB: paths are never changed once made, so a row's path is made once per index. */
  if (lua_rawgeti(L, paths, index) != LUA_TTABLE) {                           /* +8: its path */
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, key);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, index);
    lua_rawseti(L, -2, 2);
    lua_pushvalue(L, -1);
    lua_rawseti(L, paths, index);
  }
  txn_child_proxy(L, t, context, base + 7, base + 8);                         /* +9 */
  lua_replace(L, base + 1);   /* proxy, sub, id, … */
  lua_settop(L, base + 3);
  lua_rotate(L, base + 1, -1); /* sub, id, proxy */
  return 1;
none:
  lua_settop(L, base);
  return 0;
}

/* Calls the prelude's function below its `nargs` arguments outside the budget, and turns the
   budget back on. NB: the routing runs with the budget on, as the author's reducers it calls: it
   is C, which the count hook never sees, so the hook need not be switched for each reducer, only
   around the prelude's Lua (which is trusted, and would otherwise be counted). */
static void call_host(lua_State *L, int nargs, int nresults) {
  lunar_budget_pause(L);
  lua_call(L, nargs, nresults);
  lunar_budget_resume(L);
}


/* Arguments of a runner, and the slots it keeps above them. */
enum {
  A_STATE = 1, A_ACTION, A_DEPS, A_ROOT, A_INSTANCE,
  S_PROXIED, S_REAL, S_TYPE, S_EFFECTS, S_DISMISSALS, S_TOP = S_DISMISSALS
};

/* What the loop knows of each entry without reading the tables: made once per body (txn_body). */
enum { ENTRY_REDUCE, ENTRY_FOREACH, ENTRY_OTHER };
typedef struct body_entry {
  int kind;
  const void *key; /* the key string (kept alive by BODY_KEYS), or NULL for a key of another type */
  size_t length;   /* its length */
} body_entry;
typedef struct body_entries {
  lua_Integer count;
  int enter;  /* whether the body has BODY_ENTER (stacks) */
  int check;  /* whether it has BODY_CHECK (containers) */
  int others; /* whether an entry is of another kind (it may leave dismissals) */
  body_entry entry[];
} body_entries;

/* Whether the action's type (`type`, `length`: S_TYPE's string, or NULL) is entry i's key. NB: a
   short string is one object per text, so the same pointer is the same key; two pointers of one
   length may still be one long string's text twice, which a raw comparison settles. */
static int is_key(lua_State *L, const body_entry *e, lua_Integer i, const void *type, size_t length) {
  if (e->key != NULL && (e->key == type || type == NULL || e->length != length)) return e->key == type;
  lua_rawgeti(L, UP(BODY_KEYS), i);
  int same = lua_rawequal(L, -1, S_TYPE);
  lua_pop(L, 1);
  return same;
}

/* Runs the entries in order; leaves each effect in S_EFFECTS and returns their count. `at_root`:
   whether the host's call passed the root. */
static lua_Integer run_entries(lua_State *L, lunar_txn *t, const body_entries *entries, int at_root) {
  size_t length = 0;
  const void *type = lua_type(L, S_TYPE) == LUA_TSTRING ? lua_topointer(L, S_TYPE) : NULL;
  if (type != NULL) length = lua_rawlen(L, S_TYPE);
  lua_Integer count = 0;
  for (lua_Integer i = 1; i <= entries->count; i++) {
    const body_entry *e = &entries->entry[i - 1];
    if (e->kind == ENTRY_REDUCE) {
      lua_rawgeti(L, UP(BODY_REDUCERS), i);
      lua_pushvalue(L, A_STATE);
      lua_pushvalue(L, A_ACTION);
      lua_pushvalue(L, A_DEPS);
      lua_call(L, 3, 1);
      /* NB: compared raw: `==` on a script's table could run its __eq. Any other value is looked
         up, and the prelude settles it. */
      if (lua_isnil(L, -1) || lua_rawequal(L, -1, UP(BODY_NONE))) {
        lua_pop(L, 1);
        continue;
      }
      lua_pushvalue(L, -1);
      lua_rawget(L, UP(BODY_DESCRIPTIONS));
      lua_pushvalue(L, UP(BODY_SETTLE));
      lua_pushinteger(L, i);
      lua_rotate(L, -4, 2); /* settle, i, result, description */
      call_host(L, 3, 1);
    } else if (!is_key(L, e, i, type, length)) {
      continue;
    } else if (e->kind == ENTRY_FOREACH) {
      /* a forEach: the row, found at the root through the cache, or by the prelude */
      lua_rawgeti(L, UP(BODY_KEYS), i);
      lua_rawgeti(L, UP(BODY_PATHS), i);                                       /* key, paths */
      int key = lua_gettop(L) - 1;
      if (!at_root || !find_row(L, t, UP(BODY_CONTEXT), A_ACTION, A_ROOT, key, UP(BODY_INDEXES), key + 1)) {
        lua_pushvalue(L, UP(BODY_FIND));
        lua_pushinteger(L, i);
        lua_pushvalue(L, A_STATE);
        lua_pushvalue(L, S_PROXIED);
        lua_pushvalue(L, A_ACTION);
        lua_pushboolean(L, at_root);
        call_host(L, 5, 3);
      }
      /* key, paths, sub, id, element */
      int id = key + 3;
      lua_rawgeti(L, UP(BODY_REDUCERS), i);
      lua_pushvalue(L, id + 1);
      lua_pushvalue(L, id - 1);
      lua_pushvalue(L, A_DEPS);
      lua_call(L, 3, 1);
      if (lua_isnil(L, -1)) {
        lua_settop(L, key - 1);
        continue;
      }
      lua_pushvalue(L, UP(BODY_WRAP));
      lua_pushinteger(L, i);
      lua_rotate(L, -3, 2); /* wrap, i, result */
      lua_pushvalue(L, id);
      call_host(L, 3, 1);
      lua_replace(L, key);
      lua_settop(L, key);
    } else {
      lua_pushvalue(L, UP(BODY_ROUTE));
      lua_pushinteger(L, i);
      lua_pushvalue(L, A_STATE);
      lua_pushvalue(L, S_REAL);
      lua_pushvalue(L, A_ACTION);
      lua_pushvalue(L, A_DEPS);
      lua_pushvalue(L, S_DISMISSALS);
      call_host(L, 6, 2);
      lua_replace(L, S_DISMISSALS);
    }
    /* the entry's effect, or nil, on the top */
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      continue;
    }
    if (count == 0) {
      lua_createtable(L, 2, 0);
      lua_replace(L, S_EFFECTS);
    }
    lua_rawseti(L, S_EFFECTS, ++count);
  }
  return count;
}

/* run(state, action, deps [, root, instance]) -> the body's effect, or nothing: a composed
   feature's reducer; it leaves the budget as it found it. The host's bound call passes `root`
   (the state table behind the proxy `state`) and `instance` (the feature instance's data, made
   current); a parent's routing passes neither. Errors find how deep the routing is, and whose,
   on the call stack (txn_routing_where): the routing keeps no bookkeeping for them. */
static int run_body(lua_State *L) {
  lua_settop(L, A_INSTANCE);
  luaL_checkstack(L, 16, "lunar: composition nested too deeply");
  /* NB: a script can call a composed feature's `reduce` itself, with anything. */
  if (lua_type(L, A_ACTION) != LUA_TTABLE)
    return luaL_error(L, "a composed feature's reduce expects an action table like { type = \"increment\" }, got %s",
                      luaL_typename(L, A_ACTION));
  lunar_txn *t = txn_at(L, UP(BODY_CONTEXT));
  const body_entries *entries = (const body_entries *)lua_touserdata(L, UP(BODY_ENTRIES));
  /* the budget on for the routing (see call_host), and as it was at the end */
  int timed = lunar_budget_resume(L);
  /* NB: the host's call passes the root and the instance; a parent's routing neither. */
  int at_root = !lua_isnil(L, A_ROOT);
  if (!lua_isnil(L, A_INSTANCE)) {
    lua_pushvalue(L, A_INSTANCE);
    lua_rawseti(L, UP(BODY_RUNNING), 1);
  }
  /* the table behind `state`: the root given, or a proxy's; nil for a plain table */
  if (at_root) {
    lua_pushvalue(L, A_ROOT);                                                 /* S_PROXIED */
    lua_pushvalue(L, A_ROOT);                                                 /* S_REAL */
  } else {
    int mt = txn_proxy_metatable(L, A_STATE);
    if (mt != 0 && txn_push_real(L, t, UP(BODY_CONTEXT), mt, A_STATE)) {
      lua_replace(L, S_PROXIED);
    } else {
      lua_settop(L, A_INSTANCE);
      lua_pushnil(L);
    }
    lua_pushvalue(L, lua_isnil(L, S_PROXIED) ? A_STATE : S_PROXIED);          /* S_REAL */
  }
  lua_pushvalue(L, UP(BODY_TYPEKEY));
  lua_rawget(L, A_ACTION);                                                    /* S_TYPE */
  lua_pushnil(L);                                                             /* S_EFFECTS */
  lua_pushnil(L);                                                             /* S_DISMISSALS */
  if (entries->enter) {
    lua_pushvalue(L, UP(BODY_ENTER));
    lua_pushvalue(L, S_REAL);
    call_host(L, 1, 0);
  }
  lua_Integer count = run_entries(L, t, entries, at_root);
  if (entries->others && !lua_isnil(L, S_DISMISSALS)) {
    lua_pushvalue(L, UP(BODY_DISMISS));
    lua_pushvalue(L, S_DISMISSALS);
    lua_pushvalue(L, A_STATE);
    lua_pushvalue(L, S_REAL);
    call_host(L, 3, 0);
  }
  /* NB: at the root, t->flagged says whether the call made a write that can add or remove a child
     (CLuaTransaction.h); without one no container can have been touched (a row's own writes are
     deeper, a counter's are scalars), and the journal need not be scanned. */
  if (entries->check && (!at_root || t->flagged)) {
    lua_pushvalue(L, UP(BODY_CHECK));
    lua_pushvalue(L, S_REAL);
    lua_pushvalue(L, S_EFFECTS);
    lua_pushinteger(L, count);
    call_host(L, 3, 2);
    count = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_replace(L, S_EFFECTS);
  }
  if (count == 1) {
    lua_rawgeti(L, S_EFFECTS, 1);
  } else if (count > 1) {
    lua_pushvalue(L, UP(BODY_MERGE));
    lua_pushvalue(L, S_EFFECTS);
    call_host(L, 1, 1);
  }
  if (!timed) lunar_budget_pause(L);
  return count == 0 ? 0 : 1;
}

/* body(keys, reducers, paths, indexes, descriptions, none, running, origin, settle, find, wrap,
   route, enter, dismiss, check, merge) -> run: a composed feature's reducer (see run_body). */
int txn_body(lua_State *L) {
  lua_settop(L, BODY_MERGE - 1);
  for (int i = BODY_KEYS; i <= BODY_RUNNING; i++)
    if (i != BODY_NONE) luaL_checktype(L, i - 1, LUA_TTABLE);
  for (int i = BODY_SETTLE; i <= BODY_MERGE; i++)
    if (!lua_isfunction(L, i - 1) && !((i == BODY_ENTER || i == BODY_CHECK) && lua_toboolean(L, i - 1) == 0))
      return luaL_argerror(L, i - 1, "a function expected");
  lua_pushvalue(L, UP(1));
  lua_insert(L, 1);
  lua_pushliteral(L, "type");
  lua_pushliteral(L, "action");
  lua_pushliteral(L, "id");
  lua_Integer n = (lua_Integer)lua_rawlen(L, BODY_KEYS);
  body_entries *entries = (body_entries *)lua_newuserdatauv(L, sizeof(body_entries) + (size_t)n * sizeof(body_entry), 0);
  entries->count = n;
  entries->enter = lua_isfunction(L, BODY_ENTER);
  entries->check = lua_isfunction(L, BODY_CHECK);
  entries->others = 0;
  for (lua_Integer i = 1; i <= n; i++) {
    body_entry *e = &entries->entry[i - 1];
    int kind = lua_rawgeti(L, BODY_KEYS, i);
    e->kind = kind == LUA_TBOOLEAN ? ENTRY_REDUCE : lua_rawgeti(L, BODY_PATHS, i) == LUA_TTABLE ? ENTRY_FOREACH : ENTRY_OTHER;
    if (e->kind == ENTRY_OTHER) entries->others = 1;
    if (e->kind != ENTRY_REDUCE) lua_pop(L, 1);
    e->key = kind == LUA_TSTRING ? lua_topointer(L, -1) : NULL;
    e->length = kind == LUA_TSTRING ? lua_rawlen(L, -1) : 0;
    lua_pop(L, 1);
  }
  lua_pushcclosure(L, run_body, BODY_UPVALUES);
  return 1;
}

/* where() -> depth, origin: how many composed features' routings run on this thread, and the
   `file:line` of the innermost one (nil when unknown), for composition's errors. NB: read off the
   call stack, only when an error is being made, so that no call pays to keep them. */
int txn_routing_where(lua_State *L) {
  lua_Debug ar;
  lua_Integer depth = 0;
  lua_settop(L, 0);
  lua_pushnil(L);
  for (int level = 0; lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "f", &ar);
    if (lua_tocfunction(L, -1) == run_body && depth++ == 0) {
      lua_getupvalue(L, -1, BODY_ORIGIN);
      lua_replace(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pushinteger(L, depth);
  lua_insert(L, 1);
  return 2;
}
