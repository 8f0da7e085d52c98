#include "internal.h"

/* The sandbox's math.random: xoshiro256** seeded through splitmix64, one generator per sandbox,
   seeded by the host. Nothing here reads a clock, so a seeded run replays exactly. */

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

static void reseed(lunar_rng *g, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    g->s[i] = z ^ (z >> 31);
  }
}

void lunar_random_seed(void *state, uint64_t seed) {
  lunar_rng *g = (lunar_rng *)state;
  g->host_seed = seed;
  reseed(g, seed);
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
      up = luaL_checkinteger(L, 1);
      if (up == 0) {
        lua_pushinteger(L, (lua_Integer)rv);
        return 1;
      }
      break;
    case 2:
      low = luaL_checkinteger(L, 1);
      up = luaL_checkinteger(L, 2);
      break;
    default:
      return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, low <= up, lua_gettop(L), "interval is empty");
  uint64_t range = (uint64_t)up - (uint64_t)low;
  uint64_t mask = range;
  mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
  mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
  while ((rv &= mask) > range) rv = next_u64(g); /* rejection keeps the draw unbiased */
  lua_pushinteger(L, (lua_Integer)((uint64_t)low + rv));
  return 1;
}

/* randomseed(n [, m]) reseeds deterministically from the script's numbers; randomseed() returns to
   the host's seed (where real Lua would read the clock). */
static int l_randomseed(lua_State *L) {
  lunar_rng *g = (lunar_rng *)lua_touserdata(L, lua_upvalueindex(1));
  if (lua_isnone(L, 1)) {
    reseed(g, g->host_seed);
  } else {
    lua_Integer n1 = luaL_checkinteger(L, 1);
    lua_Integer n2 = luaL_optinteger(L, 2, 0);
    reseed(g, (uint64_t)n1 ^ rotl((uint64_t)n2, 32));
  }
  return 0;
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
