#include <ctype.h>
#include <string.h>
#include "limited.h"

/*
 * Lua 5.4's patterns (reference manual §6.4.1), matched as the standard library matches them
 * (same results, same errors, same "pattern too complex" depth), written afresh so that the
 * matcher counts its work: each step (testing one pattern item at one position, trying one
 * continuation while backtracking, a byte of a %b scan) is a unit charged to the running call
 * with lunar_charge. A pattern that backtracks for ever, ("a"):rep(3e5):find(".-b"), runs out of
 * the call's budget or time instead of hanging the host.
 */

enum { MAX_NESTING = 200 }; /* nested matcher frames allowed (Lua's MAXCCALLS) */

/* A test of a long set [...] costs a unit more per this many bytes of the set. */
#define SET_BYTES_PER_UNIT 8

#define UC(c) ((unsigned char)(c))

typedef lunar_matcher matcher;

void lunar_matcher_settle(matcher *m) {
  int spent = LUNAR_MATCH_TICKS - m->ticks;
  m->ticks = LUNAR_MATCH_TICKS;
  if (spent > 0) lunar_charge(m->L, spent);
}

static inline void tick(matcher *m, ptrdiff_t n) { lunar_matcher_tick(m, (int)n); }

void lunar_matcher_count_bytes(matcher *m, size_t bytes, size_t per_unit) {
  size_t units = bytes / per_unit;
  if (units >= LUNAR_MATCH_TICKS) lunar_charge(m->L, (int64_t)units);
  else if (units > 0) tick(m, (ptrdiff_t)units);
}

void lunar_matcher_init(matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->src = s;
  m->src_end = s + ls;
  m->pat_end = p + lp;
  m->ticks = LUNAR_MATCH_TICKS;
  m->ncap = 0;
}

/* ---- single characters ---- */

/* Whether c belongs to the class whose lower-case letter is `lower` (%a, %d, …), or -1 when that
   is no class letter. */
static inline int class_test(int c, int lower) {
  switch (lower) {
    case 'a': return isalpha(c) != 0;
    case 'c': return iscntrl(c) != 0;
    case 'd': return isdigit(c) != 0;
    case 'g': return isgraph(c) != 0;
    case 'l': return islower(c) != 0;
    case 'p': return ispunct(c) != 0;
    case 's': return isspace(c) != 0;
    case 'u': return isupper(c) != 0;
    case 'w': return isalnum(c) != 0;
    case 'x': return isxdigit(c) != 0;
    case 'z': return c == 0; /* still accepted by 5.4, though undocumented */
    default: return -1;
  }
}

/* Whether c matches %cl: the class (upper case for its complement), or cl itself when cl is no
   class letter (%. is '.'). NB: the same switch as class_test, which a direct one beats here. */
static inline int in_class(int c, int cl) {
  int yes;
  switch (tolower(cl)) {
    case 'a': yes = isalpha(c); break;
    case 'c': yes = iscntrl(c); break;
    case 'd': yes = isdigit(c); break;
    case 'g': yes = isgraph(c); break;
    case 'l': yes = islower(c); break;
    case 'p': yes = ispunct(c); break;
    case 's': yes = isspace(c); break;
    case 'u': yes = isupper(c); break;
    case 'w': yes = isalnum(c); break;
    case 'x': yes = isxdigit(c); break;
    case 'z': yes = (c == 0); break;
    default: return cl == c;
  }
  return isupper(cl) ? !yes : yes != 0;
}

/* in_class out of line, for sets: inlined, it costs in_set's common path (characters and ranges)
   a heavy prologue. */
__attribute__((noinline)) static int in_class_of_set(int c, int cl) { return in_class(c, cl); }

/* Whether c belongs to the set whose '[' is at `open` and whose closing ']' is at `close`. */
static int in_set(int c, const char *open, const char *close) {
  const char *q = open + 1;
  int found = 1; /* what finding c means: 0 in a complemented set */
  if (*q == '^') {
    found = 0;
    q++;
  }
  for (; q < close; q++) {
    if (*q == '%') {
      q++;
      if (in_class_of_set(c, UC(*q))) return found;
    } else if (q[1] == '-' && q + 2 < close) {
      if (UC(q[0]) <= c && c <= UC(q[2])) return found;
      q += 2;
    } else if (UC(*q) == c) {
      return found;
    }
  }
  return !found;
}

/* Where the single-character item at p ends (a char, '.', %x or a set), which is where its
   quantifier would be. */
static const char *item_end(matcher *m, const char *p) {
  char first = *p++;
  if (first == '%') {
    if (p >= m->pat_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if (first == '[') {
    if (*p == '^') p++;
    /* The first character of a set is a member even when it is ']'. */
    do {
      if (p >= m->pat_end) luaL_error(m->L, "malformed pattern (missing ']')");
      if (*p++ == '%' && p < m->pat_end) p++; /* an escape: %] is a member */
    } while (*p != ']');
    return p + 1;
  }
  return p;
}

/* Whether the character at s (none at the end) matches the single-character item p..ep. */
static inline int single(const matcher *m, const char *s, const char *p, const char *ep) {
  if (s >= m->src_end) return 0;
  int c = UC(*s);
  switch (*p) {
    case '.': return 1;
    case '%': return in_class(c, UC(p[1]));
    case '[': return in_set(c, p, ep - 1);
    default: return UC(*p) == c;
  }
}

/* Steps a test of the item p..ep costs: 1, more for a long set. */
static inline ptrdiff_t test_cost(const char *p, const char *ep) {
  return ep - p <= SET_BYTES_PER_UNIT ? 1 : 1 + (ep - p) / SET_BYTES_PER_UNIT;
}

/* ---- the matcher ---- */

static const char *match_here(matcher *m, const char *s, const char *p);

/* Item* and item+ (from s on): the longest run first, then shorter ones. */
static const char *longest(matcher *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t n, most = m->src_end - s;
  if (*p == '.') {
    n = most;
  } else if (*p == '%' && class_test('a', tolower(UC(p[1]))) >= 0) {
    /* a class: its letter is decoded once for the whole run */
    int lower = tolower(UC(p[1])), want = !isupper(UC(p[1]));
    for (n = 0; n < most && class_test(UC(s[n]), lower) == want; n++) {}
    lunar_matcher_count_bytes(m, (size_t)n, 1);
  } else if (*p == '[') {
    for (n = 0; n < most && in_set(UC(s[n]), p, ep - 1); n++) {}
    lunar_matcher_count_bytes(m, (size_t)n * (size_t)test_cost(p, ep), 1); /* a step a character tested */
  } else {
    for (n = 0; single(m, s + n, p, ep); n++) {}
    lunar_matcher_count_bytes(m, (size_t)n, 1);
  }
  for (;; n--) {
    const char *end = match_here(m, s + n, ep + 1);
    if (end != NULL || n == 0) return end;
  }
}

/* Item-: the shortest run first, then longer ones. */
static const char *shortest(matcher *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *end = match_here(m, s, ep + 1);
    if (end != NULL) return end;
    tick(m, test_cost(p, ep));
    if (!single(m, s, p, ep)) return NULL;
    s++;
  }
}

static const char *open_capture(matcher *m, const char *s, const char *p, ptrdiff_t kind) {
  if (m->ncap >= LUNAR_MAX_CAPTURES) luaL_error(m->L, "too many captures");
  int i = m->ncap++;
  m->cap[i].at = s;
  m->cap[i].len = kind;
  const char *end = match_here(m, s, p);
  if (end == NULL) m->ncap--;
  return end;
}

static const char *close_capture(matcher *m, const char *s, const char *p) {
  int i = m->ncap - 1;
  while (i >= 0 && m->cap[i].len != LUNAR_CAP_OPEN) i--;
  if (i < 0) luaL_error(m->L, "invalid pattern capture");
  m->cap[i].len = s - m->cap[i].at;
  const char *end = match_here(m, s, p);
  if (end == NULL) m->cap[i].len = LUNAR_CAP_OPEN;
  return end;
}

/* %bxy at s, where p points at x. */
static const char *balanced(matcher *m, const char *s, const char *p) {
  if (p + 1 >= m->pat_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->src_end || *s != p[0]) return NULL;
  char open = p[0], close = p[1];
  ptrdiff_t depth = 1;
  const char *q = s + 1;
  for (; q < m->src_end; q++) {
    if (*q == close) {
      if (--depth == 0) break;
    } else if (*q == open) {
      depth++;
    }
  }
  lunar_matcher_count_bytes(m, (size_t)(q - s), 1);
  return q < m->src_end ? q + 1 : NULL;
}

/* %1 … %9 at s: the same text as that capture. */
static const char *backreference(matcher *m, const char *s, int digit) {
  int i = digit - '1';
  if (i < 0 || i >= m->ncap || m->cap[i].len == LUNAR_CAP_OPEN)
    luaL_error(m->L, "invalid capture index %%%d", i + 1);
  ptrdiff_t len = m->cap[i].len;
  /* NB: Lua compares a position capture's length as a huge unsigned number: it never matches. */
  if (len < 0 || m->src_end - s < len) return NULL;
  lunar_matcher_count_bytes(m, (size_t)len, LUNAR_COPY_BYTES_PER_UNIT);
  return memcmp(m->cap[i].at, s, (size_t)len) == 0 ? s + len : NULL;
}

/* Matches the pattern from p on against the subject from s on; returns where the match ends, or
   NULL. Recurses for captures and for the quantifiers that may backtrack, at most MAX_NESTING
   deep; a plain item followed by more pattern is a turn of the loop. */
static const char *match_here(matcher *m, const char *s, const char *p) {
  if (m->nesting-- == 0) luaL_error(m->L, "pattern too complex");
  while (p != m->pat_end) {
    tick(m, 1);
    switch (*p) {
      case '(':
        s = p[1] == ')' ? open_capture(m, s, p + 2, LUNAR_CAP_POSITION) : open_capture(m, s, p + 1, LUNAR_CAP_OPEN);
        goto done;
      case ')':
        s = close_capture(m, s, p + 1);
        goto done;
      case '$':
        if (p + 1 != m->pat_end) break; /* a '$' elsewhere is itself */
        if (s != m->src_end) s = NULL;
        goto done;
      case '%':
        if (p[1] == 'b') {
          s = balanced(m, s, p + 2);
          if (s == NULL) goto done;
          p += 4;
          continue;
        }
        if (p[1] == 'f') {
          const char *set = p + 2;
          if (*set != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
          const char *end = item_end(m, set);
          int before = s == m->src ? 0 : UC(s[-1]);
          int after = UC(*s); /* '\0' at the end of the subject */
          if (in_set(before, set, end - 1) || !in_set(after, set, end - 1)) {
            s = NULL;
            goto done;
          }
          p = end;
          continue;
        }
        if (p[1] >= '0' && p[1] <= '9') {
          s = backreference(m, s, UC(p[1]));
          if (s == NULL) goto done;
          p += 2;
          continue;
        }
        break; /* a class */
      default:
        break;
    }
    /* A single-character item, perhaps quantified. */
    const char *ep = item_end(m, p);
    if (*p == '[' && ep - p > SET_BYTES_PER_UNIT) tick(m, test_cost(p, ep) - 1);
    if (!single(m, s, p, ep)) {
      if (*ep == '*' || *ep == '?' || *ep == '-') { /* zero repetitions are fine */
        p = ep + 1;
        continue;
      }
      s = NULL;
      goto done;
    }
    switch (*ep) {
      case '?': {
        const char *end = match_here(m, s + 1, ep + 1);
        if (end != NULL) {
          s = end;
          goto done;
        }
        p = ep + 1;
        continue;
      }
      case '+': s = longest(m, s + 1, p, ep); goto done;
      case '*': s = longest(m, s, p, ep); goto done;
      case '-': s = shortest(m, s, p, ep); goto done;
      default:
        s++;
        p = ep;
        continue;
    }
  }
done:
  m->nesting++;
  return s;
}

const char *lunar_match(matcher *m, const char *s, const char *p) {
  m->ncap = 0;
  m->nesting = MAX_NESTING;
  return match_here(m, s, p);
}

/* ---- captures ---- */

/* Capture i of a match s..e: its text (*text, the length returned), or LUNAR_CAP_POSITION with the
   position pushed. Capture 0 of a pattern without captures is the whole match. */
ptrdiff_t lunar_matcher_capture(matcher *m, int i, const char *s, const char *e, const char **text) {
  if (i >= m->ncap) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    *text = s;
    return e - s;
  }
  ptrdiff_t len = m->cap[i].len;
  if (len == LUNAR_CAP_OPEN) luaL_error(m->L, "unfinished capture");
  *text = m->cap[i].at;
  if (len == LUNAR_CAP_POSITION) lua_pushinteger(m->L, (m->cap[i].at - m->src) + 1);
  return len;
}

void lunar_matcher_push_capture(matcher *m, int i, const char *s, const char *e) {
  const char *text;
  ptrdiff_t len = lunar_matcher_capture(m, i, s, e, &text);
  if (len != LUNAR_CAP_POSITION) {
    if (len >= LUNAR_COPY_BYTES_PER_UNIT) lunar_matcher_count_bytes(m, (size_t)len, LUNAR_COPY_BYTES_PER_UNIT);
    lua_pushlstring(m->L, text, (size_t)len);
  }
}

/* Pushes the captures of a match s..e (the whole match if it has none and s is not NULL). */
int lunar_matcher_push_captures(matcher *m, const char *s, const char *e) {
  int n = (m->ncap == 0 && s != NULL) ? 1 : m->ncap;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) lunar_matcher_push_capture(m, i, s, e);
  return n;
}
