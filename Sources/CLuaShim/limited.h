#ifndef LUNAR_LIMITED_H
#define LUNAR_LIMITED_H

#include "internal.h"

/*
 * Shared by the standard library functions that count their work with lunar_charge: limited.c
 * (installation, the wrapped functions, string.rep, load), patterns.c (the pattern matcher),
 * strfind.c (string.find, match, gmatch, gsub) and tables.c (the table library).
 */

/* Replace functions of the library table on top of the stack. */
void lunar_open_limited_strfind(lua_State *L); /* string.find, match, gmatch, gsub */
void lunar_open_limited_tables(lua_State *L);  /* table.move, insert, remove, concat, unpack, sort, pack */

/* The limited load, as a C function whose upvalue 1 is the base library's load (sandbox.c calls
   it on its own frame, whose upvalue 1 is that same original). */
int lunar_limited_load(lua_State *L);

/* Bytes copied into a new string per unit: memcpy and the fresh pages of a big result measure
   0.25 to 0.35 ns a byte, so 8 bytes is 2 to 3 ns. */
#define LUNAR_COPY_BYTES_PER_UNIT 8

/* ---- the pattern matcher (patterns.c) ---- */

enum {
  LUNAR_MAX_CAPTURES = 32,  /* as LUA_MAXCAPTURES */
  LUNAR_MATCH_TICKS = 1024, /* steps counted locally between two calls of lunar_charge */
  LUNAR_CAP_OPEN = -1,      /* a capture whose ')' has not been reached */
  LUNAR_CAP_POSITION = -2   /* a position capture, "()" */
};

typedef struct lunar_capture {
  const char *at;
  ptrdiff_t len; /* or LUNAR_CAP_OPEN, LUNAR_CAP_POSITION */
} lunar_capture;

/* A match of a pattern against a subject, both Lua strings (so both end with a '\0' the matcher
   may read). Each step of the matcher is a unit of work: it counts them in `ticks` and charges
   them every LUNAR_MATCH_TICKS steps; call lunar_matcher_settle when done to charge the rest. */
typedef struct lunar_matcher {
  lua_State *L;
  const char *src, *src_end;
  const char *pat_end;
  int nesting; /* matcher frames left before "pattern too complex" */
  int ncap;    /* captures opened so far, finished or not */
  int ticks;   /* steps left before the next charge */
  lunar_capture cap[LUNAR_MAX_CAPTURES];
} lunar_matcher;

void lunar_matcher_init(lunar_matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp);

/* Matches the pattern from p on (no anchor: the caller handles a leading '^') at s; returns the
   end of the match, or NULL. Raises Lua's errors for malformed patterns. */
const char *lunar_match(lunar_matcher *m, const char *s, const char *p);

/* Charges the steps counted since the last charge. */
void lunar_matcher_settle(lunar_matcher *m);

/* Counts `n` steps (a few thousand at most). */
static inline void lunar_matcher_tick(lunar_matcher *m, int n) {
  if ((m->ticks -= n) <= 0) lunar_matcher_settle(m);
}

/* Counts work measured in bytes (`per_unit` bytes a unit), charging at once when it is large. */
void lunar_matcher_count_bytes(lunar_matcher *m, size_t bytes, size_t per_unit);

/* Capture i of the match s..e: its text (*text; the length is returned), or LUNAR_CAP_POSITION
   with the position pushed. Capture 0 of a pattern without captures is the whole match. */
ptrdiff_t lunar_matcher_capture(lunar_matcher *m, int i, const char *s, const char *e, const char **text);

/* Pushes capture i (see lunar_matcher_capture). */
void lunar_matcher_push_capture(lunar_matcher *m, int i, const char *s, const char *e);

/* Pushes all the captures of the match s..e (the whole match when there are none and s is not
   NULL); returns how many. */
int lunar_matcher_push_captures(lunar_matcher *m, const char *s, const char *e);

#endif
