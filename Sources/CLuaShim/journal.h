#ifndef LUNAR_JOURNAL_H
#define LUNAR_JOURNAL_H

#include "internal.h"

/* Shared by journal.c (the call's state, the library), proxies.c (the state proxies) and reduce.c
   (the reducer call). */

/* The call's scalars, shared with the prelude: a userdata that Lua indexes as `st[SLOT]`. */
typedef struct journal_state {
  int active;              /* a reducer call is running */
  lua_Integer generation;  /* the current call's number (an earlier call's nested proxies carry an older one) */
  lua_Integer count;       /* journal entries in use (4 per write: table, key, old value, path) */
  lua_Integer pending;     /* effect handles registered by the current call */
  lua_Integer shuffled;    /* tables whose elements moved during the call */
  lua_Integer proxies;     /* nested proxies made during the call */
  const void *root;        /* the current call's root proxy (also the user value, for Lua) */
  const void *root_marker; /* the ROOT path marker, which journal entries of root writes carry */
  const void *recent[8];   /* the nested proxies made last in the current call (a ring) */
  lua_Integer made;        /* nested proxies made in the current call */
  lua_Integer shallow;     /* writes of the current call at a path of at most one key: to the root's
                              fields, or to those of a table at the root (composition's containers).
                              In a composed feature's call, journal[0] is true while there are
                              some, for its routing to see. */
  lua_Integer loose;       /* effects built during the current call and not yet returned or combined
                              (lunar/loose.lua); while there are some, the call ends through `finish` */
  int routing;             /* the current call runs a composed feature's routing */
  int flagged;             /* journal[0] is set */
} journal_state;

enum { SLOT_ACTIVE = 1, SLOT_GENERATION, SLOT_COUNT, SLOT_PENDING, SLOT_SHUFFLED, SLOT_PROXIES, SLOT_ROOT, SLOT_LOOSE };

#define UP(i) lua_upvalueindex(i)

static inline journal_state *journal_of(lua_State *L, int idx) { return (journal_state *)lua_touserdata(L, idx); }

/* proxies.c */
int lunar_journal_methods(lua_State *L);
int lunar_journal_proxy_maker(lua_State *L);
int lunar_journal_root_real(lua_State *L);

/* reduce.c */
int lunar_journal_reducer(lua_State *L);
int lunar_journal_bind(lua_State *L);

#endif
