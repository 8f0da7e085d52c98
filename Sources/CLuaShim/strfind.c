#define _GNU_SOURCE /* memmem */
#include <string.h>
#include "limited.h"

/*
 * string.find, string.match, string.gmatch and string.gsub on the counting matcher (patterns.c),
 * with the standard library's arguments, results and errors. Their own work is charged too: the
 * text they copy (captures, replacements), and a plain find, which searches in linear time
 * instead of Lua's O(n·m), by the bytes it scans.
 */

enum { PLAIN_WINDOW = 1 << 20 }; /* a plain find searches this much (or the needle's length) at a time */

/* memchr/memcmp and memmem scan 0.05 to 4.5 ns a byte (memmem's worst, "aaa…ab" in "aaa…a"). */
#define SCAN_BYTES_PER_UNIT 1

typedef lunar_matcher matcher;

/* ---- find, match, gmatch ---- */

/* The 0-based start of a search from Lua's `init` (negative counts from the end). */
static size_t start_index(lua_Integer init, size_t len) {
  if (init > 0) return (size_t)init - 1;
  if (init == 0 || init < -(lua_Integer)len) return 0;
  return len - (size_t)(-init);
}

/* Whether find must treat the pattern as plain text: it has none of Lua's special characters. */
static int plain_text(lua_State *L, const char *p, size_t lp) {
  if (lp >= 256) lunar_charge(L, (int64_t)(lp / SCAN_BYTES_PER_UNIT));
  for (size_t i = 0; i < lp; i++) {
    switch (p[i]) {
      case '^': case '$': case '*': case '+': case '?': case '.': case '(': case '[': case '%': case '-':
        return 0;
      default:
        break;
    }
  }
  return 1;
}

/* The first occurrence of the needle n (nl > 0 bytes) in h (hl bytes), or NULL; *scanned is how
   far it looked. Fast in the usual case (memchr to the needle's first byte, then memcmp) and
   linear in the worst: once the comparisons have cost more than a few times the distance covered
   (a needle like "aaa…ab" in "aaa…a"), memmem (two-way) does the rest. */
static const char *search_text(const char *h, size_t hl, const char *n, size_t nl, size_t *scanned) {
  const char *at = h, *last = h + (hl - nl); /* the last place a match can start */
  size_t compared = 0;
  while (at <= last) {
    if (compared > 4 * (size_t)(at - h) + 4096) {
      const char *hit = memmem(at, (size_t)(h + hl - at), n, nl);
      *scanned = hit != NULL ? (size_t)(hit - h) + nl : hl;
      return hit;
    }
    at = (const char *)memchr(at, n[0], (size_t)(last - at) + 1);
    if (at == NULL) break;
    if (memcmp(at + 1, n + 1, nl - 1) == 0) {
      *scanned = (size_t)(at - h) + nl;
      return at;
    }
    compared += nl;
    at++;
  }
  *scanned = hl;
  return NULL;
}

/* find with a plain needle, over windows of the subject, each charged by the bytes it scanned. */
static int find_plain(lua_State *L, const char *s, size_t ls, size_t init, const char *p, size_t lp) {
  if (lp == 0) {
    lua_pushinteger(L, (lua_Integer)init + 1);
    lua_pushinteger(L, (lua_Integer)init);
    return 2;
  }
  size_t window = lp > PLAIN_WINDOW ? lp : PLAIN_WINDOW;
  for (size_t at = init; ls - at >= lp; at += window) {
    size_t span = ls - at < window + lp - 1 ? ls - at : window + lp - 1, scanned;
    const char *hit = search_text(s + at, span, p, lp, &scanned);
    if (scanned >= 64) lunar_charge(L, (int64_t)(scanned / SCAN_BYTES_PER_UNIT));
    if (hit != NULL) {
      lua_pushinteger(L, (hit - s) + 1);
      lua_pushinteger(L, (lua_Integer)((hit - s) + lp));
      return 2;
    }
    if (span == ls - at) break;
  }
  luaL_pushfail(L);
  return 1;
}

static int search(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_index(luaL_optinteger(L, 3, 1), ls);
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || plain_text(L, p, lp))) return find_plain(L, s, ls, init, p, lp);
  int anchored = *p == '^';
  if (anchored) {
    p++;
    lp--;
  }
  matcher m;
  lunar_matcher_init(&m, L, s, ls, p, lp);
  const char *at = s + init;
  do {
    const char *end = lunar_match(&m, at, p);
    if (end != NULL) {
      int n;
      if (find) {
        lua_pushinteger(L, (at - s) + 1);
        lua_pushinteger(L, end - s);
        n = lunar_matcher_push_captures(&m, NULL, NULL) + 2;
      } else {
        n = lunar_matcher_push_captures(&m, at, end);
      }
      lunar_matcher_settle(&m);
      return n;
    }
  } while (at++ < m.src_end && !anchored);
  lunar_matcher_settle(&m);
  luaL_pushfail(L);
  return 1;
}

/* string.find(s, pattern [, init [, plain]]) */
static int limited_find(lua_State *L) { return search(L, 1); }

/* string.match(s, pattern [, init]) */
static int limited_match(lua_State *L) { return search(L, 0); }

/* Where a gmatch iteration stands (upvalue 3; upvalues 1 and 2, the subject and the pattern,
   keep alive the strings it points into). */
typedef struct gmatch_state {
  const char *s, *p;
  size_t ls, lp;
  size_t next;     /* where to look next (0-based; past the end when done) */
  size_t last_end; /* where the last match ended, or SIZE_MAX: an empty match there is skipped */
} gmatch_state;

static int gmatch_step(lua_State *L) {
  gmatch_state *g = (gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
  const char *s = g->s;
  matcher m;
  lunar_matcher_init(&m, L, s, g->ls, g->p, g->lp);
  /* NB: gmatch takes a leading '^' as a plain character (an anchor would end the iteration). */
  for (size_t at = g->next; at <= g->ls; at++) {
    const char *end = lunar_match(&m, s + at, g->p);
    if (end != NULL && (size_t)(end - s) != g->last_end) {
      g->next = g->last_end = (size_t)(end - s);
      int n = lunar_matcher_push_captures(&m, s + at, end);
      lunar_matcher_settle(&m);
      return n;
    }
  }
  lunar_matcher_settle(&m);
  return 0;
}

/* string.gmatch(s, pattern [, init]) */
static int limited_gmatch(lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_index(luaL_optinteger(L, 3, 1), ls);
  lua_settop(L, 2);
  gmatch_state *g = (gmatch_state *)lua_newuserdatauv(L, sizeof(gmatch_state), 0);
  g->s = s;
  g->p = p;
  g->ls = ls;
  g->lp = lp;
  g->next = init > ls ? ls + 1 : init;
  g->last_end = (size_t)-1;
  lua_pushcclosure(L, gmatch_step, 3);
  return 1;
}

/* ---- gsub ---- */

/* Appends a replacement string (arg 3) for the match s..e: %0-%9 are captures, %% is '%'. */
static void expand(matcher *m, luaL_Buffer *b, const char *r, size_t lr, const char *s, const char *e) {
  const char *end = r + lr;
  lunar_matcher_count_bytes(m, lr, LUNAR_COPY_BYTES_PER_UNIT);
  for (;;) {
    const char *esc = (const char *)memchr(r, '%', (size_t)(end - r));
    if (esc == NULL) break;
    luaL_addlstring(b, r, (size_t)(esc - r));
    char what = esc[1]; /* the string's '\0' after a final '%' */
    if (what == '%') {
      luaL_addchar(b, '%');
    } else if (what >= '0' && what <= '9') {
      const char *text;
      ptrdiff_t len = what == '0' ? (text = s, e - s) : lunar_matcher_capture(m, what - '1', s, e, &text);
      if (len == LUNAR_CAP_POSITION) {
        luaL_addvalue(b);
      } else {
        lunar_matcher_count_bytes(m, (size_t)len, LUNAR_COPY_BYTES_PER_UNIT);
        luaL_addlstring(b, text, (size_t)len);
      }
    } else {
      luaL_error(m->L, "invalid use of '%c' in replacement string", '%');
    }
    r = esc + 2;
  }
  luaL_addlstring(b, r, (size_t)(end - r));
}

/* Appends the replacement for the match s..e, from a table or function (at index 3); returns
   whether it changed the text (false or nil keep the match as it is). */
static int replace_by_value(matcher *m, luaL_Buffer *b, const char *s, const char *e, int type) {
  lua_State *L = m->L;
  if (type == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = lunar_matcher_push_captures(m, s, e);
    lua_call(L, n, 1);
  } else {
    lunar_matcher_push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  size_t before = luaL_bufflen(b);
  luaL_addvalue(b);
  lunar_matcher_count_bytes(m, luaL_bufflen(b) - before, LUNAR_COPY_BYTES_PER_UNIT);
  return 1;
}

/* string.gsub(s, pattern, replacement [, n]) */
static int limited_gsub(lua_State *L) {
  size_t ls, lp, lr = 0;
  const char *src = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  int type = lua_type(L, 3);
  lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION || type == LUA_TTABLE, 3,
                   "string/function/table");
  const char *r = type == LUA_TNUMBER || type == LUA_TSTRING ? lua_tolstring(L, 3, &lr) : NULL;
  int anchored = *p == '^';
  if (anchored) {
    p++;
    lp--;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  matcher m;
  lunar_matcher_init(&m, L, src, ls, p, lp);
  const char *s = src, *copied = src, *last_end = NULL;
  lua_Integer n = 0;
  int changed = 0;
  while (n < max) {
    const char *end = lunar_match(&m, s, p);
    if (end != NULL && end != last_end) {
      n++;
      lunar_matcher_tick(&m, 1); /* (an empty pattern matches without a step) */
      luaL_addlstring(&b, copied, (size_t)(s - copied));
      if (r != NULL) {
        expand(&m, &b, r, lr, s, end);
        changed = 1;
      } else {
        changed |= replace_by_value(&m, &b, s, end, type);
      }
      s = copied = last_end = end;
    } else if (s < m.src_end) {
      s++; /* copied later, with the rest of the unmatched text */
    } else {
      break;
    }
    if (anchored) break;
  }
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, copied, (size_t)(m.src_end - copied));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  lunar_matcher_settle(&m);
  return 2;
}

/* Replaces find, match, gmatch and gsub in the string table on top of the stack. */
void lunar_open_limited_strfind(lua_State *L) {
  static const luaL_Reg functions[] = {
    {"find", limited_find}, {"match", limited_match}, {"gmatch", limited_gmatch}, {"gsub", limited_gsub}, {NULL, NULL}};
  luaL_setfuncs(L, functions, 0);
}
