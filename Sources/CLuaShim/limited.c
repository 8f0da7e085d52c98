#include <limits.h>
#include <string.h>
#include "limited.h"

/*
 * The standard library functions that count their work against the call's limits.
 *
 * The count hook sees VM instructions only, and a C library function runs none: pattern matching
 * can backtrack for ever, string.rep("", math.maxinteger) loops for ever, and a loop of a thousand
 * instructions can call upper() on a 100 MB string a thousand times between two hooks. So every
 * function of string, table and utf8 whose work is not bounded by a small constant is replaced, in
 * the real library tables (the string metatable's __index is the string table, and the sandbox
 * copies these tables), by one that charges its work with lunar_charge: pattern matching and the
 * table functions are rewritten to charge as they go (patterns.c, strfind.c, tables.c);
 * string.rep and load are rewritten here; the rest are the original C functions, kept as upvalue
 * 1 of a wrapper that charges a cost computed from the arguments (before the call) or from the
 * results (after it: their work is linear in what they return, so it is bounded by the memory
 * ceiling, and the next charge reads the clock).
 *
 * One unit is about one VM instruction, 1 to 3 ns of work. Per unit, measured on the original
 * functions (x86-64, 16 MB strings, in a loop, so with the fresh pages of new strings):
 *   copying into a new string (sub, format, rep, gsub) 0.25-0.35 ns/byte   8 bytes a unit
 *   upper, lower, reverse                              0.5-1 ns/byte       2 bytes a unit
 *   format: an item ('%d', '%g' ...)                   50-85 ns           24 units an item
 *   format %q                                          ~2.6 ns/byte        1 unit a byte
 *   byte (per result), char (per argument)             2.6 / 8 ns          1 / 3 units
 *   utf8.len, codepoint (per result), char (per arg)   1.9 / 4 / 44 ns     1 / 2 / 16 units
 *   utf8.offset, the utf8.codes iterator's skip        ~0.3 ns/byte        4 bytes a unit
 *   pack, unpack, packsize: a format byte; pack a byte 3-8 ns; 0.4-1.2 ns  4 units; 2 bytes
 *   load (parsing and code generation)                 up to ~25 ns/byte   8 units a byte
 * string.len and the other O(1) functions are left alone.
 */

#define CASE_BYTES_PER_UNIT 2
#define REP_BYTES_PER_UNIT 8
#define FORMAT_UNITS_PER_ITEM 24
#define CHAR_UNITS_PER_ARG 3
#define UTF8_CHAR_UNITS_PER_ARG 16
#define UTF8_CODEPOINT_UNITS_PER_RESULT 2
#define UTF8_SCAN_BYTES_PER_UNIT 4
#define PACK_UNITS_PER_FORMAT_BYTE 4
#define PACK_BYTES_PER_UNIT 2
#define DUMP_BYTES_PER_UNIT 4
#define LOAD_UNITS_PER_BYTE 8
#define LOAD_PIECE (64 * 1024) /* load parses a string this much at a time, charging each piece */

static inline void charge(lua_State *L, int64_t units) {
  if (units > 0) lunar_charge(L, units);
}

/* Calls the original C function (upvalue 1) on this frame's arguments. The originals use no
   upvalues of their own, and their errors name the caller's line as they would. */
static inline int original(lua_State *L) {
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

static size_t string_length(lua_State *L, int arg) {
  return lua_type(L, arg) == LUA_TSTRING ? lua_rawlen(L, arg) : 0;
}

/* The integer at `arg`, or `otherwise` when it is absent, nil or not an integer (the original
   then raises or uses its default). */
static lua_Integer integer_or(lua_State *L, int arg, lua_Integer otherwise) {
  int ok;
  lua_Integer v = lua_tointegerx(L, arg, &ok);
  return ok ? v : otherwise;
}

/* ---- string ---- */

/* string.upper, lower, reverse: by the bytes of the string, before. */
static int charged_by_length(lua_State *L) {
  charge(L, (int64_t)(string_length(L, 1) / CASE_BYTES_PER_UNIT));
  return original(L);
}

/* string.sub: by the length of the result, after (s:sub(i, i) over a long string stays cheap). */
static int charged_sub(lua_State *L) {
  int n = original(L);
  charge(L, (int64_t)(lua_rawlen(L, -1) / LUNAR_COPY_BYTES_PER_UNIT));
  return n;
}

/* string.byte: by the values returned, after. */
static int charged_byte(lua_State *L) {
  int n = original(L);
  charge(L, n);
  return n;
}

/* string.char: by the arguments, before. */
static int charged_char(lua_State *L) {
  charge(L, (int64_t)lua_gettop(L) * CHAR_UNITS_PER_ARG);
  return original(L);
}

/* string.format: by the format's items and the result, after. */
static int charged_format(lua_State *L) {
  size_t lf = 0;
  const char *f = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &lf) : "";
  int n = original(L);
  int64_t items = 0, quoted = 0;
  for (const char *q = f, *end = f + lf; (q = memchr(q, '%', (size_t)(end - q))) != NULL; q++) {
    items++;
    if (++q == end) break;
    if (*q == 'q') quoted = 1;
  }
  size_t result = lua_rawlen(L, -1);
  charge(L, (int64_t)(lf / 2) + items * FORMAT_UNITS_PER_ITEM + (int64_t)(quoted ? result : result / LUNAR_COPY_BYTES_PER_UNIT));
  return n;
}

/* string.pack: by the format and the result, after. */
static int charged_pack(lua_State *L) {
  int64_t format = (int64_t)string_length(L, 1) * PACK_UNITS_PER_FORMAT_BYTE;
  int n = original(L);
  charge(L, format + (int64_t)(lua_rawlen(L, -1) / PACK_BYTES_PER_UNIT));
  return n;
}

/* string.unpack: by the format, the values and the bytes of the strings returned, after. */
static int charged_unpack(lua_State *L) {
  int64_t cost = (int64_t)string_length(L, 1) * PACK_UNITS_PER_FORMAT_BYTE;
  int n = original(L);
  size_t bytes = 0;
  for (int i = 1; i <= n; i++) bytes += string_length(L, -i);
  charge(L, cost + n + (int64_t)(bytes / LUNAR_COPY_BYTES_PER_UNIT));
  return n;
}

/* string.packsize: by the format, before. */
static int charged_packsize(lua_State *L) {
  charge(L, (int64_t)string_length(L, 1) * PACK_UNITS_PER_FORMAT_BYTE);
  return original(L);
}

/* string.dump: by the size of the result, after. */
static int charged_dump(lua_State *L) {
  int n = original(L);
  charge(L, (int64_t)(lua_rawlen(L, -1) / DUMP_BYTES_PER_UNIT));
  return n;
}

/* string.rep(s, n [, sep]): rewritten, since Lua's loops n times even when the result is empty
   (string.rep("", math.maxinteger) never returns). Fills the result by doubling, charging each
   copy before it is made. */
static int limited_rep(lua_State *L) {
  size_t l, lsep;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  size_t unit = l + lsep;
  if (n <= 0 || unit == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  /* Lua's test, for the same error: its string functions make strings shorter than INT_MAX. */
  size_t most = sizeof(size_t) < sizeof(int) ? (size_t)-1 : (size_t)INT_MAX;
  if (unit < l || unit > most / (lua_Unsigned)n) return luaL_error(L, "resulting string too large");
  size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
  if (total == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  luaL_Buffer b;
  char *out = luaL_buffinitsize(L, &b, total);
  /* The result is the first `total` bytes of s..sep repeated: write one period, then copy what
     is written after itself. */
  size_t filled = l < total ? l : total;
  memcpy(out, s, filled);
  if (filled < total) {
    memcpy(out + filled, sep, lsep);
    filled += lsep;
  }
  while (filled < total) {
    size_t chunk = filled < total - filled ? filled : total - filled;
    charge(L, (int64_t)(chunk / REP_BYTES_PER_UNIT));
    memcpy(out + filled, out, chunk);
    filled += chunk;
  }
  charge(L, (int64_t)(total / LUNAR_COPY_BYTES_PER_UNIT)); /* the copy into a Lua string */
  luaL_pushresultsize(&b, total);
  return 1;
}

/* ---- utf8 ---- */

/* A position relative to the string's end as utf8 takes them (negative counts from the end). */
static lua_Integer utf8_position(lua_Integer pos, size_t len) {
  if (pos >= 0) return pos;
  if (0u - (size_t)pos > len) return 0;
  return (lua_Integer)len + pos + 1;
}

/* utf8.char: by the arguments, before. */
static int charged_utf8_char(lua_State *L) {
  charge(L, (int64_t)lua_gettop(L) * UTF8_CHAR_UNITS_PER_ARG);
  return original(L);
}

/* utf8.len(s [, i [, j [, lax]]]): by the bytes of the range, before. */
static int charged_utf8_len(lua_State *L) {
  size_t len = string_length(L, 1);
  lua_Integer i = utf8_position(integer_or(L, 2, 1), len);
  lua_Integer j = utf8_position(integer_or(L, 3, -1), len);
  if (i < 1) i = 1;
  if (j > (lua_Integer)len) j = (lua_Integer)len; /* (the original refuses such ranges) */
  if (j >= i) charge(L, j - i + 1);
  return original(L);
}

/* utf8.codepoint: by the values returned, after. */
static int charged_utf8_codepoint(lua_State *L) {
  int n = original(L);
  charge(L, (int64_t)n * UTF8_CODEPOINT_UNITS_PER_RESULT);
  return n;
}

/* utf8.offset(s, n [, i]): by the bytes between i and the position found (or the end), after. */
static int charged_utf8_offset(lua_State *L) {
  size_t len = string_length(L, 1);
  lua_Integer count = integer_or(L, 2, 0);
  lua_Integer from = utf8_position(integer_or(L, 3, count >= 0 ? 1 : (lua_Integer)len + 1), len);
  int n = original(L);
  int found;
  lua_Integer to = lua_tointegerx(L, -n, &found);
  if (!found) to = count > 0 ? (lua_Integer)len + 1 : 1;
  lua_Unsigned scanned = to >= from ? (lua_Unsigned)to - (lua_Unsigned)from : (lua_Unsigned)from - (lua_Unsigned)to;
  charge(L, (int64_t)(scanned / UTF8_SCAN_BYTES_PER_UNIT));
  return n;
}

/* The iterator utf8.codes returns, around the original (upvalue 1): each call skips the
   continuation bytes after the previous character, which can be the whole string. By the bytes
   it moved, after. */
static int charged_codes_step(lua_State *L) {
  lua_Integer before = lua_tointeger(L, 2);
  size_t len = string_length(L, 1);
  int n = original(L);
  lua_Integer after = n > 0 ? lua_tointeger(L, -n) : (lua_Integer)len;
  if (after > before) charge(L, (after - before) / UTF8_SCAN_BYTES_PER_UNIT);
  return n;
}

/* utf8.codes(s [, lax]): the original, returning the charged iterator. Upvalues: the original
   codes, the charged strict iterator, the charged lax one, the original strict iterator. */
static int charged_codes(lua_State *L) {
  int n = original(L);
  int strict = lua_rawequal(L, -n, lua_upvalueindex(4));
  lua_pushvalue(L, lua_upvalueindex(strict ? 2 : 3));
  lua_replace(L, -n - 1);
  return n;
}

/* ---- load ---- */

typedef struct piece_reader {
  const char *next;
  size_t left;
} piece_reader;

/* Gives the parser the chunk a piece at a time and charges each piece before it is parsed. A
   limit error raised here is caught by load, which returns it; the call is spent, so the next
   instruction raises it again (see lunar_charge). */
static const char *read_piece(lua_State *L, void *data, size_t *size) {
  piece_reader *r = (piece_reader *)data;
  if (r->left == 0) return NULL;
  size_t n = r->left < LOAD_PIECE ? r->left : LOAD_PIECE;
  lunar_charge(L, (int64_t)n * LOAD_UNITS_PER_BYTE);
  const char *piece = r->next;
  r->next += n;
  r->left -= n;
  *size = n;
  return piece;
}

/* A chunk's reader function (upvalue 1), charged by the size of each piece it returns: the
   function runs under the hook, but the parser's work on a piece (a single piece can be the whole
   chunk) does not. */
static int charged_reader(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 0, 1);
  if (lua_type(L, -1) == LUA_TSTRING) charge(L, (int64_t)lua_rawlen(L, -1) * LOAD_UNITS_PER_BYTE);
  return 1;
}

/* load(chunk [, chunkname [, mode [, env]]]): a string chunk is parsed as the base library
   does (same defaults and results), through read_piece; a reader function is wrapped in
   charged_reader for the original. */
int lunar_limited_load(lua_State *L) {
  if (lua_type(L, 1) == LUA_TFUNCTION) {
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, charged_reader, 1);
    lua_replace(L, 1);
  }
  if (lua_type(L, 1) != LUA_TSTRING) return original(L);
  size_t l;
  const char *s = lua_tolstring(L, 1, &l);
  const char *mode = luaL_optstring(L, 3, "bt");
  int env = !lua_isnone(L, 4) ? 4 : 0;
  const char *chunkname = luaL_optstring(L, 2, s);
  piece_reader r = {s, l};
  int status = lua_load(L, read_piece, &r, chunkname, mode);
  if (status != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  if (env != 0) {
    lua_pushvalue(L, env);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1); /* the chunk's first upvalue is its _ENV */
  }
  return 1;
}

/* ---- installing ---- */

/* t[name] = wrapper with the current t[name] as its upvalue, for the table on top. */
static void wrap(lua_State *L, const char *name, lua_CFunction wrapper) {
  lua_getfield(L, -1, name);
  if (lua_tocfunction(L, -1) == NULL) luaL_error(L, "lunar: %s is no C function", name);
  lua_pushcclosure(L, wrapper, 1);
  lua_setfield(L, -2, name);
}

/* Opens the limited functions. Call once per state, after the libraries are open: a second call
   would take the wrappers for the originals. */
void lunar_open_limited_libraries(lua_State *L) {
  lunar_open_limited_base(L);

  lua_getglobal(L, "string");
  lunar_open_limited_strfind(L);
  wrap(L, "upper", charged_by_length);
  wrap(L, "lower", charged_by_length);
  wrap(L, "reverse", charged_by_length);
  wrap(L, "sub", charged_sub);
  wrap(L, "byte", charged_byte);
  wrap(L, "char", charged_char);
  wrap(L, "format", charged_format);
  wrap(L, "pack", charged_pack);
  wrap(L, "unpack", charged_unpack);
  wrap(L, "packsize", charged_packsize);
  wrap(L, "dump", charged_dump);
  lua_pushcfunction(L, limited_rep);
  lua_setfield(L, -2, "rep");
  lua_pop(L, 1);

  lua_getglobal(L, "table");
  lunar_open_limited_tables(L);
  lua_pop(L, 1);

  lua_getglobal(L, "utf8");
  wrap(L, "char", charged_utf8_char);
  wrap(L, "len", charged_utf8_len);
  wrap(L, "codepoint", charged_utf8_codepoint);
  wrap(L, "offset", charged_utf8_offset);
  /* utf8.codes: its two iterators (strict and lax), got from the original, each wrapped. */
  lua_getfield(L, -1, "codes");       /* original codes */
  lua_pushvalue(L, -1);
  lua_pushliteral(L, "");
  lua_call(L, 1, 1);                  /* original strict iterator */
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, charged_codes_step, 1);
  lua_pushvalue(L, -3);
  lua_pushliteral(L, "");
  lua_pushboolean(L, 1);
  lua_call(L, 2, 1);                  /* original lax iterator */
  lua_pushcclosure(L, charged_codes_step, 1);
  lua_rotate(L, -3, -1);              /* codes, charged strict, charged lax, original strict */
  lua_pushcclosure(L, charged_codes, 4);
  lua_setfield(L, -2, "codes");
  lua_pop(L, 1);

  lua_pushglobaltable(L);
  wrap(L, "load", lunar_limited_load);
  lua_pop(L, 1);
}
