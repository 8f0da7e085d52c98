#include <string.h>
#include "internal.h"

/* Programs are written by LuaBridge (Swift) and read here, inside protected calls, so that every
   allocation they cause (strings, tables) may fail with a Lua error that never crosses Swift. */

#define MAX_PROGRAM_DEPTH 1000

static int truncated(lua_State *L) { return luaL_error(L, "lunar: malformed push program"); }

static void need(lua_State *L, lunar_reader *r, size_t n) {
  if ((size_t)(r->end - r->p) < n) truncated(L);
}

static uint32_t read_u32(lua_State *L, lunar_reader *r) {
  uint32_t v;
  need(L, r, 4);
  memcpy(&v, r->p, 4);
  r->p += 4;
  return v;
}

/* A string's length: 64 bits, checked against what is left of the program. */
static size_t read_length(lua_State *L, lunar_reader *r) {
  uint64_t v;
  need(L, r, 8);
  memcpy(&v, r->p, 8);
  r->p += 8;
  if (v > (uint64_t)(r->end - r->p)) truncated(L);
  return (size_t)v;
}

/*
 * The short strings programs bring again and again (table keys, action types) are looked up in a
 * small cache before Lua's own table of strings: pushing a string through the C API hashes all of
 * it and finds it among all the strings of the state, where a slot of the cache is found from a
 * few bytes and checked with one comparison. The cache holds the strings in a registry table (one
 * per slot, so that their text stays where it is) and their text and length in the host.
 */

/* Longer strings are rarely a key, and cost more to hash than they save. */
#define CACHED_LENGTH 24

void lunar_decode_begin(lua_State *L, lunar_reader *r, lunar_host *h) {
  /* NB: a state that lunar_openlibs did not open has no cache: its slot holds nil instead. */
  if (h->strings == 0) lua_pushnil(L);
  else lua_rawgeti(L, LUA_REGISTRYINDEX, h->strings);
  r->host = h;
  r->strings = h->strings == 0 ? 0 : lua_gettop(L);
}

/* NB: from the length and three bytes, not all of them: a slot shared by two strings costs only
   a miss, where hashing every byte would cost what the cache saves. */
static unsigned string_slot(const unsigned char *p, size_t n) {
  if (n == 0) return 0;
  uint32_t hash = (uint32_t)n * 0x9E3779B1u ^ (uint32_t)p[0] * 0x85EBCA77u ^ (uint32_t)p[n - 1] * 0xC2B2AE3Du ^
                  (uint32_t)p[n >> 1] * 0x27D4EB2Fu;
  return (hash >> 16) & (LUNAR_STRING_SLOTS - 1);
}

static void push_string(lua_State *L, lunar_reader *r, const unsigned char *p, size_t n) {
  if (r->strings == 0 || n > CACHED_LENGTH) {
    lua_pushlstring(L, (const char *)p, n);
    return;
  }
  lunar_host *h = r->host;
  unsigned slot = string_slot(p, n);
  if (h->string_length[slot] == n && h->string_text[slot] != NULL && memcmp(h->string_text[slot], p, n) == 0) {
    lua_rawgeti(L, r->strings, (lua_Integer)slot + 1);
    return;
  }
  lua_pushlstring(L, (const char *)p, n);
  lua_pushvalue(L, -1);
  lua_rawseti(L, r->strings, (lua_Integer)slot + 1);
  /* NB: only once the new string holds the slot: the one it replaced may now be collected. */
  h->string_text[slot] = lua_tostring(L, -1);
  h->string_length[slot] = n;
}

static int at_end(lua_State *L, lunar_reader *r) {
  need(L, r, 1);
  if (*r->p == LUNAR_OP_END) {
    r->p++;
    return 1;
  }
  return 0;
}

void lunar_decode_value(lua_State *L, lunar_reader *r, int depth) {
  if (depth > MAX_PROGRAM_DEPTH) luaL_error(L, "lunar: value nested too deeply");
  need(L, r, 1);
  int op = *r->p++;
  switch (op) {
    case LUNAR_OP_NIL: lua_pushnil(L); break;
    case LUNAR_OP_FALSE: lua_pushboolean(L, 0); break;
    case LUNAR_OP_TRUE: lua_pushboolean(L, 1); break;
    case LUNAR_OP_INTEGER: {
      int64_t v;
      need(L, r, 8);
      memcpy(&v, r->p, 8);
      r->p += 8;
      lua_pushinteger(L, (lua_Integer)v);
      break;
    }
    case LUNAR_OP_NUMBER: {
      double v;
      need(L, r, 8);
      memcpy(&v, r->p, 8);
      r->p += 8;
      lua_pushnumber(L, (lua_Number)v);
      break;
    }
    case LUNAR_OP_STRING: {
      size_t n = read_length(L, r);
      push_string(L, r, r->p, n);
      r->p += n;
      break;
    }
    case LUNAR_OP_REF: {
      int32_t ref;
      need(L, r, 4);
      memcpy(&ref, r->p, 4);
      r->p += 4;
      if (ref == LUA_REFNIL) lua_pushnil(L);
      else lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
      break;
    }
    case LUNAR_OP_ARRAY: {
      uint32_t hint = read_u32(L, r);
      luaL_checkstack(L, 3, "lunar: value nested too deeply");
      lua_createtable(L, (int)(hint > 1u << 24 ? 1u << 24 : hint), 0);
      lua_Integer i = 0;
      while (!at_end(L, r)) {
        i++;
        if (*r->p == LUNAR_OP_NIL) { /* a hole: nothing to store */
          r->p++;
          continue;
        }
        lunar_decode_value(L, r, depth + 1);
        lua_rawseti(L, -2, i);
      }
      /* NB: every array is marked, not only an empty one: a list emptied in place (table.remove)
         must still read back, and be written to JSON, as an array. */
      lua_rawgetp(L, LUA_REGISTRYINDEX, &lunar_key_array_marker);
      lunar_clear_finalizer(L, -1);
      lua_setmetatable(L, -2);
      break;
    }
    case LUNAR_OP_TABLE: {
      uint32_t hint = read_u32(L, r);
      luaL_checkstack(L, 4, "lunar: value nested too deeply");
      lua_createtable(L, 0, (int)(hint > 1u << 24 ? 1u << 24 : hint));
      while (!at_end(L, r)) {
        if (*r->p++ != LUNAR_OP_STRING) truncated(L); /* keys are strings */
        size_t n = read_length(L, r);
        push_string(L, r, r->p, n);
        r->p += n;
        lunar_decode_value(L, r, depth + 1);
        if (lua_isnil(L, -1)) lua_pop(L, 2); /* nil values do not exist in Lua tables */
        else lua_rawset(L, -3);
      }
      break;
    }
    default:
      truncated(L);
  }
}

static void decode_all(lua_State *L, lunar_reader *r) {
  while (r->p < r->end) {
    luaL_checkstack(L, 2, "lunar: too many values");
    lunar_decode_value(L, r, 0);
  }
}

/* ---- push ---- */

static int push_worker(lua_State *L) {
  lunar_reader *r = (lunar_reader *)lua_touserdata(L, 1);
  lua_pop(L, 1);
  lunar_decode_begin(L, r, lunar_host_of(L));
  decode_all(L, r);
  return lua_gettop(L) - 1; /* the values, above the cache's strings */
}

int lunar_push(lua_State *L, const unsigned char *program, size_t length, int *count) {
  int top = lua_gettop(L);
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lunar_reader r = {program, program + length, NULL, 0};
  lua_pushcfunction(L, push_worker);
  lua_pushlightuserdata(L, &r);
  int status = lua_pcall(L, 1, LUA_MULTRET, 0);
  *count = lua_gettop(L) - top;
  return status;
}

/* ---- call ---- */

typedef struct call_job {
  lunar_reader reader;
  int nresults;
} call_job;

static int call_worker(lua_State *L) {
  call_job *job = (call_job *)lua_touserdata(L, 1);
  lua_pop(L, 1);
  lunar_decode_begin(L, &job->reader, lunar_host_of(L));
  decode_all(L, &job->reader);
  int nargs = lua_gettop(L) - 2; /* the function and its arguments, above the cache's strings */
  if (nargs < 0) return luaL_error(L, "lunar: nothing to call");
  lua_call(L, nargs, job->nresults);
  return lua_gettop(L) - 1;
}

/* Pushes the program's values directly if none of them can allocate (references and scalars
   only) and returns 1; returns 0 at the first value that could allocate (the caller then drops
   what was pushed and takes the protected path). This is the hot path of calls. */
static int push_simple(lua_State *L, lunar_reader *r, int *pushed) {
  for (; r->p < r->end; (*pushed)++) {
    int op = *r->p;
    switch (op) {
      case LUNAR_OP_NIL: lua_pushnil(L); r->p += 1; break;
      case LUNAR_OP_FALSE: lua_pushboolean(L, 0); r->p += 1; break;
      case LUNAR_OP_TRUE: lua_pushboolean(L, 1); r->p += 1; break;
      case LUNAR_OP_INTEGER: {
        int64_t v;
        if (r->end - r->p < 9) return 0;
        memcpy(&v, r->p + 1, 8);
        r->p += 9;
        lua_pushinteger(L, (lua_Integer)v);
        break;
      }
      case LUNAR_OP_NUMBER: {
        double v;
        if (r->end - r->p < 9) return 0;
        memcpy(&v, r->p + 1, 8);
        r->p += 9;
        lua_pushnumber(L, (lua_Number)v);
        break;
      }
      case LUNAR_OP_REF: {
        int32_t ref;
        if (r->end - r->p < 5) return 0;
        memcpy(&ref, r->p + 1, 4);
        r->p += 5;
        if (ref == LUA_REFNIL) lua_pushnil(L);
        else lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        break;
      }
      default:
        return 0;
    }
  }
  return 1;
}

void lunar_install_handler(lua_State *L) {
  lua_pushcfunction(L, lunar_msgh);
  lunar_host_of(L)->main = L;
}

int lunar_call(lunar_host *h, lua_State *L, const unsigned char *program, size_t length, int nresults, int *count) {
  int top = lua_gettop(L);
  int status;
  int handler = lunar_open_entry(h, L, 0);
  if (handler == 0) return LUA_ERRMEM;
  int base = handler == 1 ? top : top + 1;
  int pushed = 0;
  lunar_reader r = {program, program + length, NULL, 0};
  /* NB: pushing scalars and registry values never allocates, so they need no protection. A
     program of n values is at least n bytes long, so `length` slots are always enough. */
  if (length <= 64 && length > 0 && lua_checkstack(L, (int)length) && push_simple(L, &r, &pushed)) {
    status = lunar_budgeted_pcall(h, L, pushed - 1, nresults, handler);
  } else {
    lua_settop(L, base);
    if (!lua_checkstack(L, 3)) {
      status = LUA_ERRMEM;
    } else {
      call_job job = {{program, program + length, NULL, 0}, nresults};
      lua_pushcfunction(L, call_worker);
      lua_pushlightuserdata(L, &job);
      status = lunar_budgeted_pcall(h, L, 1, LUA_MULTRET, handler);
    }
  }
  lunar_close_entry(L, handler);
  *count = lua_gettop(L) - top;
  return status;
}

/* ---- table access ---- */

static int rawset_worker(lua_State *L) {
  lunar_reader *r = (lunar_reader *)lua_touserdata(L, 1);
  lua_pop(L, 1);
  decode_all(L, r);
  if (lua_gettop(L) != 3 || !lua_istable(L, 1)) return luaL_error(L, "lunar: rawset needs a table, a key and a value");
  if (lua_isnil(L, 2)) return luaL_error(L, "table index is nil");
  if (lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) != lua_tonumber(L, 2)) return luaL_error(L, "table index is NaN");
  lua_rawset(L, 1);
  return 0;
}

int lunar_rawset(lua_State *L, const unsigned char *program, size_t length) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lunar_reader r = {program, program + length, NULL, 0};
  lua_pushcfunction(L, rawset_worker);
  lua_pushlightuserdata(L, &r);
  return lua_pcall(L, 1, 0, 0);
}

static int rawget_worker(lua_State *L) {
  lunar_reader *r = (lunar_reader *)lua_touserdata(L, 1);
  lua_pop(L, 1);
  decode_all(L, r);
  if (lua_gettop(L) != 2 || !lua_istable(L, 1)) return luaL_error(L, "lunar: rawget needs a table and a key");
  lua_rawget(L, 1);
  return 1;
}

int lunar_rawget(lua_State *L, const unsigned char *program, size_t length) {
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lunar_reader r = {program, program + length, NULL, 0};
  lua_pushcfunction(L, rawget_worker);
  lua_pushlightuserdata(L, &r);
  return lua_pcall(L, 1, 1, 0);
}

/* ---- references, loading, strings ---- */

static int ref_worker(lua_State *L) {
  int *ref = (int *)lua_touserdata(L, 2);
  lua_settop(L, 1);
  *ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int lunar_ref(lua_State *L, int *ref) {
  if (!lua_checkstack(L, 3)) {
    lua_pop(L, 1);
    return LUA_ERRMEM;
  }
  lua_pushcfunction(L, ref_worker);
  lua_rotate(L, -2, 1); /* function below the value */
  lua_pushlightuserdata(L, ref);
  return lua_pcall(L, 2, 0, 0);
}

int lunar_load(lua_State *L, const char *source, size_t length, const char *chunkname) {
  if (!lua_checkstack(L, 2)) return LUA_ERRMEM;
  return luaL_loadbufferx(L, source, length, chunkname, "t");
}

static int tostring_worker(lua_State *L) {
  luaL_tolstring(L, 1, NULL);
  return 1;
}

int lunar_tostring(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!lua_checkstack(L, 3)) return LUA_ERRMEM;
  lua_pushcfunction(L, tostring_worker);
  lua_pushvalue(L, idx);
  return lua_pcall(L, 1, 1, 0);
}

static int newtable_worker(lua_State *L) {
  lua_newtable(L);
  return 1;
}

int lunar_newtable(lua_State *L) {
  if (!lua_checkstack(L, 2)) return LUA_ERRMEM;
  lua_pushcfunction(L, newtable_worker);
  return lua_pcall(L, 0, 1, 0);
}

/* A script reaches the array marker (getmetatable of a list) and could plant a __gc in it: every
   table the host then marks, with setmetatable from C and past the sandbox's refusal, would get
   a finalizer, code run at moments no budget covers. Whether a table is finalized is decided when
   its metatable is set, so the field is cleared just before. Allocates nothing: "__gc" is one of
   Lua's fixed strings, and clearing a present key only stores nil in its slot. */
void lunar_clear_finalizer(lua_State *L, int metatable) {
  metatable = lua_absindex(L, metatable);
  lua_pushliteral(L, "__gc");
  if (lua_rawget(L, metatable) == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "__gc");
  lua_pushnil(L);
  lua_rawset(L, metatable);
}

int lunar_is_array_marked(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!lua_checkstack(L, 2)) return 0;
  if (!lua_getmetatable(L, idx)) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lunar_key_array_marker);
  int marked = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return marked;
}

/* ---- the hottest call: function(table, integer), both held in the registry ---- */

int lunar_call_refs_integer(lunar_host *h, lua_State *L, int function, int table, int64_t value,
                            int nresults, int *count) {
  int top = lua_gettop(L);
  /* NB: same protocol as lunar_call, without a program to decode: rawgeti and pushinteger never
     allocate, so nothing here needs protection before the pcall. */
  int handler = lunar_open_entry(h, L, 3);
  if (handler == 0) return LUA_ERRMEM;
  lua_rawgeti(L, LUA_REGISTRYINDEX, function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, table);
  lua_pushinteger(L, (lua_Integer)value);
  int status = lunar_budgeted_pcall(h, L, 2, nresults, handler);
  lunar_close_entry(L, handler);
  *count = lua_gettop(L) - top;
  return status;
}
