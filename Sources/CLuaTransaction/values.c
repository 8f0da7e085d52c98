#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "transaction.h"

/*
 * What state may hold beyond its types: the values the host can write. State leaves Lua as JSON
 * (events, recordings, shared files, devtools), which has no NaN or infinities and whose text is
 * UTF-8; a write that stores something else is refused here, when it is made, with the path of
 * the value, rather than failing every event after it.
 */

#define WRITTEN_AS_JSON "state is written as JSON (events, recordings, saved files)"

ptrdiff_t txn_utf8_invalid(const char *text, size_t length) {
  const unsigned char *s = (const unsigned char *)text;
  size_t i = 0;
  /* NB: ASCII first, eight bytes at a time, then byte by byte: most keys and strings are short
     ASCII, and are done here. */
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    memcpy(&word, s + i, 8);
    if (word & 0x8080808080808080ULL) break;
  }
  while (i < length && s[i] < 0x80) i++;
  while (i < length) {
    unsigned char lead = s[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    /* NB: the second byte's range rules out overlong forms (E0, F0), surrogates (ED) and code
       points above U+10FFFF (F4): the rule of the host's JSON codec (RFC 3629). */
    size_t n;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) n = 2;
    else if (lead == 0xE0) n = 3, low = 0xA0;
    else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) n = 3;
    else if (lead == 0xED) n = 3, high = 0x9F;
    else if (lead == 0xF0) n = 4, low = 0x90;
    else if (lead >= 0xF1 && lead <= 0xF3) n = 4;
    else if (lead == 0xF4) n = 4, high = 0x8F;
    else return (ptrdiff_t)i;
    if (i + 1 >= length || s[i + 1] < low || s[i + 1] > high) return (ptrdiff_t)i;
    for (size_t k = 2; k < n; k++)
      if (i + k >= length || s[i + k] < 0x80 || s[i + k] > 0xBF) return (ptrdiff_t)i;
    i += n;
  }
  return -1;
}

static int is_identifier(const char *s, size_t n) {
  if (n == 0 || (s[0] >= '0' && s[0] <= '9')) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
  }
  return 1;
}

/* Pushes the string at `key` as a Lua literal: valid UTF-8 keeps its characters, other bytes and
   control characters become `\xHH`, so that the message itself is text. */
static void push_quoted(lua_State *L, int key) {
  size_t n;
  const char *s = lua_tolstring(L, key, &n);
  int text = txn_utf8_invalid(s, n) < 0;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      luaL_addchar(&b, '\\');
      luaL_addchar(&b, (char)c);
    } else if (c < 0x20 || c == 0x7F || (c >= 0x80 && !text)) {
      char hex[8];
      snprintf(hex, sizeof hex, "\\x%02X", c);
      luaL_addstring(&b, hex);
    } else {
      luaL_addchar(&b, (char)c);
    }
  }
  luaL_addchar(&b, '"');
  luaL_pushresult(&b);
}

/* Pushes one key of a path as text: `.name`, `["odd key"]` or `[3]`. */
static void push_component(lua_State *L, int key) {
  key = lua_absindex(L, key);
  luaL_checkstack(L, 4, "state nested too deeply");
  int top = lua_gettop(L);
  if (lua_type(L, key) == LUA_TSTRING) {
    size_t n;
    const char *s = lua_tolstring(L, key, &n);
    if (is_identifier(s, n)) {
      lua_pushliteral(L, ".");
      lua_pushvalue(L, key);
    } else {
      lua_pushliteral(L, "[");
      push_quoted(L, key);
      lua_pushliteral(L, "]");
    }
  } else {
    lua_pushliteral(L, "[");
    lua_pushvalue(L, key);
    lua_tostring(L, -1); /* a copy: the key itself stays a number */
    lua_pushliteral(L, "]");
  }
  lua_concat(L, lua_gettop(L) - top);
}

void txn_push_where(lua_State *L, const txn_where *w, int count) {
  int top = lua_gettop(L);
  lua_pushliteral(L, "state");
  lua_Integer depth = (lua_Integer)lua_rawlen(L, w->path);
  for (lua_Integer i = 1; i <= depth; i++) {
    lua_rawgeti(L, w->path, i);
    push_component(L, -1);
    lua_remove(L, -2);
    lua_concat(L, 2);
  }
  if (count > 0) {
    push_component(L, w->key);
    lua_concat(L, 2);
  }
  for (int i = 0; i < count - 1 && i < w->depth; i++) {
    push_component(L, w->inner[i]);
    lua_concat(L, 2);
  }
  lua_settop(L, top + 1);
}

/* The path of the value, every key included. */
static const char *where_value(lua_State *L, const txn_where *w) {
  txn_push_where(L, w, w->depth + 1);
  return lua_tostring(L, -1);
}

void txn_refuse_number(lua_State *L, int value, const txn_where *w) {
  lua_Number n = lua_tonumber(L, value);
  const char *what = isnan(n) ? "NaN" : n < 0 ? "-infinity" : "infinity";
  const char *at = where_value(L, w);
  luaL_error(L, "cannot store %s in state (at %s): " WRITTEN_AS_JSON ", which has no NaN or infinities", what, at);
}

void txn_refuse_string(lua_State *L, int value, ptrdiff_t offset, const txn_where *w) {
  value = lua_absindex(L, value);
  char byte[8];
  snprintf(byte, sizeof byte, "0x%02X", (unsigned char)lua_tostring(L, value)[offset]);
  const char *at = where_value(L, w);
  luaL_error(L,
             "cannot store a string that is not UTF-8 in state (at %s: byte %d is %s): " WRITTEN_AS_JSON
             ", whose text is UTF-8; encode binary data as text first (hex, base64)",
             at, (int)offset, byte);
}

void txn_refuse_key(lua_State *L, int key, ptrdiff_t offset, const txn_where *w) {
  key = lua_absindex(L, key);
  char byte[8];
  snprintf(byte, sizeof byte, "0x%02X", (unsigned char)lua_tostring(L, key)[offset]);
  push_quoted(L, key);
  const char *quoted = lua_tostring(L, -1);
  /* the table holding the key */
  txn_push_where(L, w, w->depth);
  luaL_error(L,
             "cannot store the key %s in state (in %s: byte %d is %s): " WRITTEN_AS_JSON ", whose keys are UTF-8 text",
             quoted, lua_tostring(L, -1), (int)offset, byte);
}

void txn_refuse_float_key(lua_State *L, int key, const txn_where *w) {
  lua_pushvalue(L, key);
  const char *number = lua_tostring(L, -1);
  txn_push_where(L, w, w->depth);
  luaL_error(L, "cannot use the float %s as a key in state (in %s): state keys are strings or integers", number,
             lua_tostring(L, -1));
}

/* The integer the string at `key` is the decimal text of, as Lua writes integers (`12`, `-3`; not
   `012`, `+3`, `-0` or `1e3`): the key JSON writes for that integer. */
static int decimal_integer(lua_State *L, int key, lua_Integer *n) {
  size_t len;
  const char *s = lua_tolstring(L, key, &len);
  size_t first = s[0] == '-';
  if (len == first || len > 20) return 0;
  if (s[first] == '0' && (len > first + 1 || first)) return 0;
  for (size_t i = first; i < len; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  /* NB: Lua reads text too large for an integer as a float: no integer key writes that text. */
  if (lua_stringtonumber(L, s) != len + 1) return 0;
  int integral = lua_isinteger(L, -1);
  *n = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return integral;
}

int txn_key_has_twin(lua_State *L, int table, int key) {
  if (lua_type(L, key) == LUA_TSTRING) {
    /* NB: most keys are names, which their first byte rules out. */
    char c = lua_tostring(L, key)[0];
    lua_Integer n;
    if (!(c == '-' || (c >= '0' && c <= '9')) || !decimal_integer(L, key, &n)) return 0;
    int found = lua_rawgeti(L, table, n) != LUA_TNIL;
    lua_pop(L, 1);
    return found;
  }
  if (!lua_isinteger(L, key)) return 0;
  /* NB: written by hand: snprintf costs several times a short string's interning. */
  char text[24];
  char *end = text + sizeof text, *p = end;
  lua_Integer n = lua_tointeger(L, key);
  lua_Unsigned u = n < 0 ? 0 - (lua_Unsigned)n : (lua_Unsigned)n;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u > 0);
  if (n < 0) *--p = '-';
  table = lua_absindex(L, table);
  lua_pushlstring(L, p, (size_t)(end - p));
  int found = lua_rawget(L, table) != LUA_TNIL;
  lua_pop(L, 1);
  return found;
}

void txn_refuse_twin_key(lua_State *L, int key, const txn_where *w) {
  key = lua_absindex(L, key);
  int text = lua_type(L, key) == LUA_TSTRING;
  lua_pushvalue(L, key);
  const char *name = lua_tostring(L, -1);
  txn_push_where(L, w, w->depth);
  luaL_error(L,
             "cannot store the key %s%s%s in state (in %s): it holds the %s key %s%s%s already, and " WRITTEN_AS_JSON
             ", where both are the key \"%s\"; use keys of one kind in a table",
             text ? "\"" : "", name, text ? "\"" : "", lua_tostring(L, -1), text ? "integer" : "string",
             text ? "" : "\"", name, text ? "" : "\"", name);
}
