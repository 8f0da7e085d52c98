#include "internal.h"

/* The sandbox's math.random: Lua 5.4's generator (xoshiro256**, seeded as math.randomseed seeds
   it), one per sandbox, seeded by the host. A seed gives the sequence stock Lua gives after
   math.randomseed(seed). Nothing here reads a clock, so a seeded run replays exactly. */

typedef struct lunar_rng {
  uint64_t s[4];
  uint64_t host_seed;
} lunar_rng;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next_u64(lunar_rng *g) {
  uint64_t result = rotl(g->s[1] * 5, 7) * 9;
  uint64_t t = g->s[1] << 17;
  g->s[2] ^= g->s[0];
  g->s[3] ^= g->s[1];
  g->s[1] ^= g->s[2];
  g->s[0] ^= g->s[3];
  g->s[2] ^= t;
  g->s[3] = rotl(g->s[3], 45);
  return result;
}

/* Lua 5.4's setseed: the two numbers and two constants, then 16 draws discarded to spread them. */
static void reseed(lunar_rng *g, uint64_t n1, uint64_t n2) {
  g->s[0] = n1;
  g->s[1] = 0xff; /* avoids a zero state */
  g->s[2] = n2;
  g->s[3] = 0;
  for (int i = 0; i < 16; i++) next_u64(g);
}

void lunar_random_seed(void *state, uint64_t seed) {
  lunar_rng *g = (lunar_rng *)state;
  g->host_seed = seed;
  reseed(g, seed, 0);
}

/* luaL_checkinteger, naming `name` when the call site gives none (see lunar_argument_error). */
static lua_Integer checkinteger(lua_State *L, int arg, const char *name) {
  int ok;
  lua_Integer v = lua_tointegerx(L, arg, &ok);
  if (ok) return v;
  if (lua_type(L, arg) == LUA_TNUMBER) lunar_argument_error(L, arg, name, "number has no integer representation");
  lunar_type_error(L, arg, name, "number");
  return 0;
}

/* Same contract as Lua's math.random: () a float in [0,1); (m) an integer in [1,m]; (m,n) an
   integer in [m,n]; (0) any integer. */
static int l_random(lua_State *L) {
  lunar_rng *g = (lunar_rng *)lua_touserdata(L, lua_upvalueindex(1));
  uint64_t rv = next_u64(g);
  lua_Integer low, up;
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, (lua_Number)(rv >> 11) * (0.5 / ((uint64_t)1 << 52)));
      return 1;
    case 1:
      low = 1;
      up = checkinteger(L, 1, "math.random");
      if (up == 0) {
        lua_pushinteger(L, (lua_Integer)rv);
        return 1;
      }
      break;
    case 2:
      low = checkinteger(L, 1, "math.random");
      up = checkinteger(L, 2, "math.random");
      break;
    default:
      return luaL_error(L, "wrong number of arguments");
  }
  if (low > up) lunar_argument_error(L, 1, "math.random", "interval is empty");
  uint64_t range = (uint64_t)up - (uint64_t)low;
  uint64_t mask = range;
  mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
  mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
  while ((rv &= mask) > range) rv = next_u64(g); /* rejection keeps the draw unbiased */
  lua_pushinteger(L, (lua_Integer)((uint64_t)low + rv));
  return 1;
}

/* randomseed(n [, m]) reseeds as stock Lua does; randomseed() returns to the host's seed (where
   stock Lua would read the clock). Both return the two seed numbers, which replay the sequence
   when given back to randomseed. */
static int l_randomseed(lua_State *L) {
  lunar_rng *g = (lunar_rng *)lua_touserdata(L, lua_upvalueindex(1));
  lua_Integer n1, n2;
  if (lua_isnone(L, 1)) {
    n1 = (lua_Integer)g->host_seed;
    n2 = 0;
  } else {
    n1 = checkinteger(L, 1, "math.randomseed");
    n2 = lua_isnoneornil(L, 2) ? 0 : checkinteger(L, 2, "math.randomseed");
  }
  reseed(g, (uint64_t)n1, (uint64_t)n2);
  lua_pushinteger(L, n1);
  lua_pushinteger(L, n2);
  return 2;
}

static int pushrandom_worker(lua_State *L) {
  uint64_t seed = *(uint64_t *)lua_touserdata(L, 1);
  void **state = (void **)lua_touserdata(L, 2);
  lua_settop(L, 0);
  lunar_rng *g = (lunar_rng *)lua_newuserdatauv(L, sizeof(lunar_rng), 0);
  lunar_random_seed(g, seed);
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, l_random, 1);
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, l_randomseed, 1);
  *state = g;
  return 2;
}

int lunar_pushrandom(lua_State *L, uint64_t seed, void **state) {
  if (!lua_checkstack(L, 4)) return LUA_ERRMEM;
  lua_pushcfunction(L, pushrandom_worker);
  lua_pushlightuserdata(L, &seed);
  lua_pushlightuserdata(L, state);
  return lua_pcall(L, 2, 2, 0);
}
