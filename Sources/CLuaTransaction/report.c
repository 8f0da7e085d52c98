#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "transaction.h"

/*
 * The report of what a call changed, for the host: one entry per key written (the first write of
 * each, with the value the key holds now), read from the journal. Keys and paths are interned —
 * each gets a small id the host caches — so a field written again costs the host no read of its
 * key or path; a path new to the host is pushed for it to read once.
 */

/* Beyond this many writes the report does not look for repeated keys: the host plans as for a
   structural change (which covers repeats). */
#define CHECKED_WRITES 32
/* Ids handed out per epoch: past this, a new epoch starts (the host empties its caches). */
#define INTERNED_LIMIT 4096

/* The id of the key or path at `value` (interned now if new; `*fresh` says so). NB: most reports
   name the keys and paths of the last ones; an object's address finds its id without a lookup in
   the interned table. An address stands for one object through the epoch: the interned table
   holds every object it names until the epoch ends, and then the cache is emptied. (A long string
   equal to an interned one but another object misses, and is looked up.) */
static int intern(lua_State *L, lunar_txn *t, int interned, int value, int *fresh) {
  const void *object = lua_topointer(L, value);
  uintptr_t address = (uintptr_t)object;
  size_t slot = (size_t)((address >> 4) ^ (address >> 11)) & (LUNAR_TXN_INTERN_SLOTS - 1);
  *fresh = 0;
  if (object != NULL && t->intern_object[slot] == object) return t->intern_id[slot];
  lua_pushvalue(L, value);
  int id;
  if (lua_rawget(L, interned) == LUA_TNUMBER) {
    id = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
  } else {
    lua_pop(L, 1);
    id = ++t->interned;
    lua_pushvalue(L, value);
    lua_pushinteger(L, id);
    lua_rawset(L, interned);
    *fresh = 1;
  }
  t->intern_object[slot] = object;
  t->intern_id[slot] = id;
  return id;
}

/* Whether an earlier entry than `at` wrote the same key of the same table. */
static int repeated(lua_State *L, int journal, lua_Integer at, int table, int key) {
  for (lua_Integer other = 1; other < at; other += LUNAR_TXN_STRIDE) {
    lua_rawgeti(L, journal, other + LUNAR_TXN_TABLE);
    int same = lua_rawequal(L, -1, table);
    lua_pop(L, 1);
    if (!same) continue;
    lua_rawgeti(L, journal, other + LUNAR_TXN_KEY);
    same = lua_rawequal(L, -1, key);
    lua_pop(L, 1);
    if (same) return 1;
  }
  return 0;
}

void txn_report(lua_State *L, lunar_txn *t, int context, lunar_txn_outcome *out) {
  lua_Integer writes = t->count / LUNAR_TXN_STRIDE;
  out->changes = 0;
  out->structural = writes > CHECKED_WRITES;
  out->change = t->changes;
  if (writes == 0) {
    out->epoch = t->epoch;
    return;
  }
  if (writes > t->capacity) {
    int capacity = (int)(writes < 8 ? 8 : writes * 2);
    lunar_txn_change *grown = (lunar_txn_change *)realloc(t->changes, sizeof(lunar_txn_change) * (size_t)capacity);
    if (grown == NULL) luaL_error(L, "not enough memory");
    t->changes = grown;
    t->capacity = capacity;
  }
  out->change = t->changes;
  luaL_checkstack(L, 8, NULL);
  /* NB: a new epoch only between reports, so that one report's ids are all of one epoch. */
  if (t->interned + 2 * writes > INTERNED_LIMIT) {
    lua_newtable(L);
    lua_setiuservalue(L, context, UV_INTERNED);
    t->interned = 0;
    t->epoch++;
    memset(t->intern_object, 0, sizeof t->intern_object);
  }
  out->epoch = t->epoch;
  /* NB: the values the host reads off the stack are pushed as they come, above these three. */
  int top = lua_gettop(L);
  lua_getiuservalue(L, context, UV_JOURNAL);
  lua_getiuservalue(L, context, UV_INTERNED);
  lua_getiuservalue(L, context, UV_ROOTPATH);
  int journal = top + 1, interned = top + 2, rootpath = top + 3;
  int pushed = 0;
  for (lua_Integer at = 1; at <= t->count; at += LUNAR_TXN_STRIDE) {
    int base = lua_gettop(L);
    lua_rawgeti(L, journal, at + LUNAR_TXN_TABLE); /* base + 1 */
    lua_rawgeti(L, journal, at + LUNAR_TXN_KEY);   /* base + 2 */
    int table = base + 1, key = base + 2;
    /* NB: a table written over (even one this call made) may have held other writes' paths */
    if (lua_rawgeti(L, journal, at + LUNAR_TXN_OLD) == LUA_TTABLE) out->structural = 1;
    lua_pop(L, 1);
    if (!out->structural && repeated(L, journal, at, table, key)) {
      lua_settop(L, base);
      continue;
    }
    lunar_txn_change *c = &t->changes[out->changes++];
    c->path_slot = 0;
    c->value_slot = 0;
    /* the key */
    int fresh = 0;
    if (lua_type(L, key) == LUA_TSTRING) {
      c->key_type = LUA_TSTRING;
      c->key_string = lua_tolstring(L, key, &c->key_length); /* kept alive by the interned table */
      c->key = intern(L, t, interned, key, &fresh);
    } else if (lua_isinteger(L, key)) {
      c->key_type = LUA_TNUMBER;
      c->key_integer = lua_tointeger(L, key);
    } else {
      c->key_type = LUA_TNONE; /* a float key: the host reads the whole state again */
      out->structural = 1;
    }
    /* the path */
    int new_path = 0;
    lua_rawgeti(L, journal, at + LUNAR_TXN_PATH);
    if (lua_rawequal(L, -1, rootpath)) {
      c->path = 0;
    } else {
      c->path = intern(L, t, interned, lua_gettop(L), &new_path);
    }
    lua_pop(L, 1);
    /* the value now */
    lua_pushvalue(L, key);
    c->value_type = lua_rawget(L, table);
    switch (c->value_type) {
      case LUA_TNIL: break;
      case LUA_TBOOLEAN: c->boolean = lua_toboolean(L, -1); break;
      case LUA_TNUMBER:
        c->is_integer = lua_isinteger(L, -1);
        if (c->is_integer) c->integer = lua_tointeger(L, -1);
        else c->number = lua_tonumber(L, -1);
        break;
      case LUA_TSTRING:
        /* NB: the string is kept alive by the state table until the next call changes it. */
        c->string = lua_tolstring(L, -1, &c->string_length);
        break;
      default:
        out->structural = 1;
        c->value_type = LUA_TTABLE;
        break;
    }
    lua_settop(L, base);
    /* what the host reads off the stack: a new path, a table value */
    if (new_path) {
      lua_rawgeti(L, journal, at + LUNAR_TXN_PATH);
      c->path_slot = out->effects + ++pushed;
    }
    if (c->value_type == LUA_TTABLE) {
      lua_rawgeti(L, journal, at + LUNAR_TXN_TABLE);
      lua_rawgeti(L, journal, at + LUNAR_TXN_KEY);
      lua_rawget(L, -2);
      lua_remove(L, -2);
      c->value_slot = out->effects + ++pushed;
    }
  }
  /* the three working tables go; the pushed values stay, in order, right after the effect */
  lua_rotate(L, top + 1, -3);
  lua_pop(L, 3);
}
