#include "transaction.h"

/*
 * A composed feature's body, run for an action: its entries in order, each `lunar.reduce` with
 * every action, each child entry with the actions whose `type` is its key, and the effects they
 * return collected. The prelude (lunar/compose.lua) makes one runner per body and keeps all the
 * rest: the call's bookkeeping before and after, finding an element it has no cache for, the
 * other kinds of children, wrapping a child's effect, every error and its message.
 *
 * Why C: the loop runs for every action of every composed feature, and in Lua each step of it
 * (an entry's fields, a call into C for the row, another for each of the author's reducers) cost
 * more than the author's own reducers did. It never runs a script's code itself: every read is
 * raw, ids and types are compared raw, and the author's reducers run under the budget (`user`).
 */

#define UP(i) lua_upvalueindex(i)

/* Finds the row of a forEach list at the root for `action` (`{ type = key, id = …, action = sub }`)
   through composition's cache (`indexes[list][id]` -> index, checked against the row's `id`); the
   row's path from the root is paths[index] (made here when missing). Pushes the child's action,
   the id and the row's proxy and returns 1; pushes nothing and returns 0 when any of it is not so
   (composition then finds the row itself and explains what is wrong). */
static int find_row(lua_State *L, lunar_txn *t, int context, int action, int root, int key, int indexes,
                    int paths) {
  if (!t->active || lua_type(L, action) != LUA_TTABLE || lua_type(L, root) != LUA_TTABLE) return 0;
  int base = lua_gettop(L);
  lua_getiuservalue(L, context, UV_IDKEY);                                    /* +1: "id" */
  lua_pushliteral(L, "action");
  if (lua_rawget(L, action) != LUA_TTABLE) goto none;                         /* +2: sub */
  lua_pushliteral(L, "type");
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

/* Calls the function below its `n` arguments on the stack's top with the budget on; leaves its
   first result. */
static void call_user(lua_State *L, int n) {
  lunar_budget_resume(L);
  lua_call(L, n, 1);
  lunar_budget_pause(L);
}

/* The runner's upvalues (see txn_body). */
enum {
  BODY_CONTEXT = 1,
  BODY_KEYS,         /* entry -> its key, or false for a lunar.reduce */
  BODY_REDUCERS,     /* entry -> the function it runs (a child's reduce, or lunar.reduce's) */
  BODY_PATHS,        /* entry -> a forEach's row paths by index, or false */
  BODY_INDEXES,      /* composition's caches: list -> { [id] = index } */
  BODY_DESCRIPTIONS, /* effect handle -> its description */
  BODY_NONE,         /* fx.none's description */
  BODY_FRAME,        /* composition's call in progress: { instance, depth, failAt } */
  BODY_ORIGIN,       /* this feature's `file:line`, for its errors (nil when unknown) */
  BODY_SETTLE,       /* settle(entry, result, description) -> effect or nil (raises if not one) */
  BODY_FIND,         /* find(entry, state, proxied, action, atRoot) -> sub, id, element (raises) */
  BODY_WRAP,         /* wrap(entry, result, id) -> a row's effect, wrapped */
  BODY_ROUTE,        /* route(entry, state, real, action, deps, dismissals) -> effect, dismissals */
  BODY_ENTER,        /* enter(real): the stacks made current (false without stacks) */
  BODY_DISMISS,      /* dismiss(dismissals, state, real): dismissed children removed */
  BODY_CHECK,        /* check(real, effects, count) -> effects, count (false without containers) */
  BODY_MERGE,        /* merge(effects) -> one effect */
  BODY_UPVALUES = BODY_MERGE
};

/* The frame's slots (the prelude's `frame` in lunar/compose.lua). */
enum { FRAME_INSTANCE = 1, FRAME_DEPTH, FRAME_FAILAT };

/* Arguments of a runner, and the slots it keeps above them. */
enum {
  A_STATE = 1, A_ACTION, A_DEPS, A_ROOT, A_INSTANCE,
  S_OUTER, S_PROXIED, S_REAL, S_TYPE, S_EFFECTS, S_DISMISSALS, S_TOP = S_DISMISSALS
};

/* Runs the entries in order; leaves each effect in S_EFFECTS and returns their count. */
static lua_Integer run_entries(lua_State *L, lunar_txn *t) {
  lua_Integer n = (lua_Integer)lua_rawlen(L, UP(BODY_KEYS)), count = 0;
  for (lua_Integer i = 1; i <= n; i++) {
    int kind = lua_rawgeti(L, UP(BODY_KEYS), i);
    if (kind == LUA_TBOOLEAN) {
      lua_pop(L, 1);
      lua_rawgeti(L, UP(BODY_REDUCERS), i);
      lua_pushvalue(L, A_STATE);
      lua_pushvalue(L, A_ACTION);
      lua_pushvalue(L, A_DEPS);
      call_user(L, 3);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        continue;
      }
      /* NB: looked up, never compared: `==` on a script's table could run its __eq. */
      lua_pushvalue(L, -1);
      lua_rawget(L, UP(BODY_DESCRIPTIONS));
      if (lua_rawequal(L, -1, UP(BODY_NONE))) {
        lua_pop(L, 2);
        continue;
      }
      lua_pushvalue(L, UP(BODY_SETTLE));
      lua_pushinteger(L, i);
      lua_rotate(L, -4, 2); /* settle, i, result, description */
      lua_call(L, 3, 1);
    } else if (!lua_rawequal(L, -1, S_TYPE)) {
      lua_pop(L, 1);
      continue;
    } else if (lua_rawgeti(L, UP(BODY_PATHS), i) == LUA_TTABLE) {             /* key, paths */
      /* a forEach: the row, found at the root through the cache, or by the prelude */
      int key = lua_gettop(L) - 1;
      if (lua_isnil(L, A_ROOT) ||
          !find_row(L, t, UP(BODY_CONTEXT), A_ACTION, A_ROOT, key, UP(BODY_INDEXES), key + 1)) {
        lua_pushvalue(L, UP(BODY_FIND));
        lua_pushinteger(L, i);
        lua_pushvalue(L, A_STATE);
        lua_pushvalue(L, S_PROXIED);
        lua_pushvalue(L, A_ACTION);
        lua_pushboolean(L, !lua_isnil(L, A_ROOT));
        lua_call(L, 5, 3);
      }
      /* key, paths, sub, id, element */
      int id = key + 3;
      lua_rawgeti(L, UP(BODY_REDUCERS), i);
      lua_pushvalue(L, id + 1);
      lua_pushvalue(L, id - 1);
      lua_pushvalue(L, A_DEPS);
      call_user(L, 3);
      if (lua_isnil(L, -1)) {
        lua_settop(L, key - 1);
        continue;
      }
      lua_pushvalue(L, UP(BODY_WRAP));
      lua_pushinteger(L, i);
      lua_rotate(L, -3, 2); /* wrap, i, result */
      lua_pushvalue(L, id);
      lua_call(L, 3, 1);
      lua_replace(L, key);
      lua_settop(L, key);
    } else {
      lua_pop(L, 2);
      lua_pushvalue(L, UP(BODY_ROUTE));
      lua_pushinteger(L, i);
      lua_pushvalue(L, A_STATE);
      lua_pushvalue(L, S_REAL);
      lua_pushvalue(L, A_ACTION);
      lua_pushvalue(L, A_DEPS);
      lua_pushvalue(L, S_DISMISSALS);
      lua_call(L, 6, 2);
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
   feature's reducer, without the budget switch around it. The host's bound call passes `root`
   (the state table behind the proxy `state`) and `instance` (the feature instance's data, made
   current); a parent's routing passes neither. An error leaves the frame as it was at the error:
   the next call from the host starts it again. */
static int run_body(lua_State *L) {
  lua_settop(L, A_INSTANCE);
  luaL_checkstack(L, 16, "lunar: composition nested too deeply");
  /* NB: a script can call a composed feature's `reduce` itself, with anything. */
  if (lua_type(L, A_ACTION) != LUA_TTABLE)
    return luaL_error(L, "a composed feature's reduce expects an action table like { type = \"increment\" }, got %s",
                      luaL_typename(L, A_ACTION));
  lunar_txn *t = txn_at(L, UP(BODY_CONTEXT));
  lua_Integer depth = 0;
  if (!lua_isnil(L, A_INSTANCE)) {
    lua_pushvalue(L, A_INSTANCE);
    lua_rawseti(L, UP(BODY_FRAME), FRAME_INSTANCE);
  } else {
    lua_rawgeti(L, UP(BODY_FRAME), FRAME_DEPTH);
    depth = lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  lua_pushinteger(L, depth + 1);
  lua_rawseti(L, UP(BODY_FRAME), FRAME_DEPTH);
  lua_rawgeti(L, UP(BODY_FRAME), FRAME_FAILAT);                               /* S_OUTER */
  lua_pushvalue(L, UP(BODY_ORIGIN));
  lua_rawseti(L, UP(BODY_FRAME), FRAME_FAILAT);
  /* the table behind `state`: the root given, or a proxy's; nil for a plain table */
  if (!lua_isnil(L, A_ROOT)) {
    lua_pushvalue(L, A_ROOT);                                                 /* S_PROXIED */
  } else {
    int mt = txn_proxy_metatable(L, A_STATE);
    if (mt != 0 && txn_push_real(L, t, UP(BODY_CONTEXT), mt, A_STATE)) {
      lua_replace(L, S_PROXIED);
    } else {
      lua_settop(L, S_OUTER);
      lua_pushnil(L);
    }
  }
  lua_pushvalue(L, lua_isnil(L, S_PROXIED) ? A_STATE : S_PROXIED);            /* S_REAL */
  lua_pushliteral(L, "type");
  lua_rawget(L, A_ACTION);                                                    /* S_TYPE */
  lua_pushnil(L);                                                             /* S_EFFECTS */
  lua_pushnil(L);                                                             /* S_DISMISSALS */
  if (lua_isfunction(L, UP(BODY_ENTER))) {
    lua_pushvalue(L, UP(BODY_ENTER));
    lua_pushvalue(L, S_REAL);
    lua_call(L, 1, 0);
  }
  lua_Integer count = run_entries(L, t);
  if (!lua_isnil(L, S_DISMISSALS)) {
    lua_pushvalue(L, UP(BODY_DISMISS));
    lua_pushvalue(L, S_DISMISSALS);
    lua_pushvalue(L, A_STATE);
    lua_pushvalue(L, S_REAL);
    lua_call(L, 3, 0);
  }
  /* NB: at the root, t->flagged says whether the call made a write that can add or remove a child
     (CLuaTransaction.h); without one no container can have been touched (a row's own writes are
     deeper, a counter's are scalars), and the journal need not be scanned. */
  if (lua_isfunction(L, UP(BODY_CHECK)) && (lua_isnil(L, A_ROOT) || t->flagged)) {
    lua_pushvalue(L, UP(BODY_CHECK));
    lua_pushvalue(L, S_REAL);
    lua_pushvalue(L, S_EFFECTS);
    lua_pushinteger(L, count);
    lua_call(L, 3, 2);
    count = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_replace(L, S_EFFECTS);
  }
  lua_pushinteger(L, depth);
  lua_rawseti(L, UP(BODY_FRAME), FRAME_DEPTH);
  lua_pushvalue(L, S_OUTER);
  lua_rawseti(L, UP(BODY_FRAME), FRAME_FAILAT);
  if (count == 0) return 0;
  if (count == 1) {
    lua_rawgeti(L, S_EFFECTS, 1);
    return 1;
  }
  lua_pushvalue(L, UP(BODY_MERGE));
  lua_pushvalue(L, S_EFFECTS);
  lua_call(L, 1, 1);
  return 1;
}

/* body(keys, reducers, paths, indexes, descriptions, none, frame, origin, settle, find, wrap,
   route, enter, dismiss, check, merge) -> run: a composed feature's reducer (see run_body). */
int txn_body(lua_State *L) {
  lua_settop(L, BODY_UPVALUES - 1);
  for (int i = BODY_KEYS; i <= BODY_FRAME; i++)
    if (i != BODY_NONE) luaL_checktype(L, i - 1, LUA_TTABLE);
  for (int i = BODY_SETTLE; i <= BODY_MERGE; i++)
    if (!lua_isfunction(L, i - 1) && !((i == BODY_ENTER || i == BODY_CHECK) && lua_toboolean(L, i - 1) == 0))
      return luaL_argerror(L, i - 1, "a function expected");
  lua_pushvalue(L, UP(1));
  lua_insert(L, 1);
  lua_pushcclosure(L, run_body, BODY_UPVALUES);
  return 1;
}
