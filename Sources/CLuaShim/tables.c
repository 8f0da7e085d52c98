#include <limits.h>
#include "limited.h"

/*
 * table.move, insert, remove, concat, unpack, sort and pack with the standard library's semantics
 * (they honour __index, __newindex and __len) and error messages, but counting their work: one
 * unit per element moved, visited or compared, charged with lunar_charge before or while it is
 * done. A table whose __len says 2^62 while __index and __newindex are tables would keep the
 * standard functions in C for ever; these run out of the call's budget or time instead.
 */

enum { BATCH = 1024 }; /* elements between two charges */

/* Units per element moved, read, written or compared. NB: one, as a VM instruction moving a slot;
   the C API's lua_geti + lua_seti measure 7 to 10 ns a slot on plain arrays and 20 to 40 ns
   through absent keys and __index/__newindex tables, so a budget in units runs longer here than
   in Lua code (the time limit still holds, see the clock reads in lunar_charge). */
#define UNITS_PER_ELEMENT 1

/* ---- what counts as a table ---- */

enum { NEEDS_INDEX = 1, NEEDS_NEWINDEX = 2, NEEDS_LEN = 4 };

static int has_field(lua_State *L, const char *key, int n) {
  lua_pushstring(L, key);
  return lua_rawget(L, -n) != LUA_TNIL;
}

/* A table, or a value whose metatable has the metamethods the function needs. */
static void check_table(lua_State *L, int arg, int needs) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  int n = 1; /* values to pop: the metatable and the fields looked up */
  if (lua_getmetatable(L, arg) && (!(needs & NEEDS_INDEX) || has_field(L, "__index", ++n)) &&
      (!(needs & NEEDS_NEWINDEX) || has_field(L, "__newindex", ++n)) &&
      (!(needs & NEEDS_LEN) || has_field(L, "__len", ++n))) {
    lua_pop(L, n);
  } else {
    luaL_checktype(L, arg, LUA_TTABLE); /* raises */
  }
}

static lua_Integer checked_length(lua_State *L, int arg, int needs) {
  check_table(L, arg, needs | NEEDS_LEN);
  return luaL_len(L, arg);
}

/* Charges the next batch of at most BATCH of the `total` elements, `done` being done; returns
   where the batch ends. */
static lua_Integer next_batch(lua_State *L, lua_Integer done, lua_Integer total) {
  lua_Integer batch = total - done < BATCH ? total - done : BATCH;
  lunar_charge(L, batch * UNITS_PER_ELEMENT);
  return done + batch;
}

/* ---- move, insert, remove ---- */

/* table.move(a1, f, e, t [, a2]) */
static int limited_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  lua_Integer t = luaL_checkinteger(L, 4);
  int to = !lua_isnoneornil(L, 5) ? 5 : 1;
  check_table(L, 1, NEEDS_INDEX);
  check_table(L, to, NEEDS_NEWINDEX);
  if (e >= f) {
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    lua_Integer n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    /* Overlapping ranges in one table are copied from the end, so nothing is overwritten early. */
    int forward = t > e || t <= f || (to != 1 && !lua_compare(L, 1, to, LUA_OPEQ));
    for (lua_Integer i = 0; i < n;) {
      for (lua_Integer stop = next_batch(L, i, n); i < stop; i++) {
        lua_Integer k = forward ? i : n - 1 - i;
        lua_geti(L, 1, f + k);
        lua_seti(L, to, t + k);
      }
    }
  }
  lua_pushvalue(L, to);
  return 1;
}

/* table.insert(t, [pos,] value) */
static int limited_insert(lua_State *L) {
  lua_Integer end = checked_length(L, 1, NEEDS_INDEX | NEEDS_NEWINDEX);
  end = (lua_Integer)((lua_Unsigned)end + 1u); /* the first empty slot (wraps as Lua's does) */
  lua_Integer pos;
  switch (lua_gettop(L)) {
    case 2:
      pos = end;
      break;
    case 3: {
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2, "position out of bounds");
      lua_Integer n = end > pos ? end - pos : 0; /* elements to shift up (none when `end` wrapped) */
      for (lua_Integer i = 0; i < n;) {
        for (lua_Integer stop = next_batch(L, i, n); i < stop; i++) {
          lua_geti(L, 1, end - i - 1);
          lua_seti(L, 1, end - i);
        }
      }
      break;
    }
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

/* table.remove(t [, pos]) */
static int limited_remove(lua_State *L) {
  lua_Integer size = checked_length(L, 1, NEEDS_INDEX | NEEDS_NEWINDEX);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  /* NB: Lua 5.4.4 names argument #1 in this message. */
  if (pos != size) luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
  lua_geti(L, 1, pos); /* the result */
  lua_Integer n = pos < size ? size - pos : 0; /* elements to shift down */
  for (lua_Integer i = 0; i < n;) {
    for (lua_Integer stop = next_batch(L, i, n); i < stop; i++, pos++) {
      lua_geti(L, 1, pos + 1);
      lua_seti(L, 1, pos);
    }
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

/* ---- concat, unpack, pack ---- */

static void add_element(lua_State *L, luaL_Buffer *b, lua_Integer i) {
  lua_geti(L, 1, i);
  if (!lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1), (LUAI_UACINT)i);
  luaL_addvalue(b);
}

/* table.concat(list [, sep [, i [, j]]]): a unit an element, and the bytes copied. */
static int limited_concat(lua_State *L) {
  lua_Integer last = checked_length(L, 1, NEEDS_INDEX);
  size_t lsep;
  const char *sep = luaL_optlstring(L, 2, "", &lsep);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t charged = 0; /* bytes of the buffer charged so far */
  int elements = 0;   /* elements since the last charge */
  for (; i <= last; i++) {
    add_element(L, &b, i);
    if (i == last) break; /* (i + 1 could overflow) */
    luaL_addlstring(&b, sep, lsep);
    if (++elements == BATCH || luaL_bufflen(&b) - charged >= BATCH * LUNAR_COPY_BYTES_PER_UNIT) {
      size_t units = (luaL_bufflen(&b) - charged) / LUNAR_COPY_BYTES_PER_UNIT;
      lunar_charge(L, elements * UNITS_PER_ELEMENT + (int64_t)units);
      charged += units * LUNAR_COPY_BYTES_PER_UNIT;
      elements = 0;
    }
  }
  lunar_charge(L, (elements + 1) * UNITS_PER_ELEMENT + (int64_t)((luaL_bufflen(&b) - charged) / LUNAR_COPY_BYTES_PER_UNIT));
  luaL_pushresult(&b);
  return 1;
}

/* table.unpack(list [, i [, j]]) */
static int limited_unpack(lua_State *L) {
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
  if (i > e) return 0;
  lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
  if (n >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++n))) return luaL_error(L, "too many results to unpack");
  /* NB: the stack holds at most a million values, so this is a bounded amount of work. */
  lunar_charge(L, (int64_t)n * UNITS_PER_ELEMENT);
  for (; i < e; i++) lua_geti(L, 1, i);
  lua_geti(L, 1, e);
  return (int)n;
}

/* table.pack(...): as the original, charged by the number of values. */
static int limited_pack(lua_State *L) {
  int n = lua_gettop(L);
  lunar_charge(L, n * UNITS_PER_ELEMENT);
  lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
  return original(L);
}

/* ---- sort ---- */

/* An introsort (quicksort, heapsort when it recurses too deep): O(n log n) comparisons whatever
   the input. Elements stay in the table, read and written with lua_geti/lua_seti as Lua's own
   sort does; the comparator is at index 2 (nil for '<'). Like Lua's, it raises "invalid order
   function for sorting" when a comparison that a consistent order makes impossible sends a
   partition scan past its end, and the order of equal elements is unspecified (it may differ from
   stock Lua's). */

typedef struct sorter {
  lua_State *L;
  int ticks;         /* comparisons and writes left before the next charge */
  int has_function;  /* a comparator at index 2 (it cannot change during the sort) */
} sorter;

static void sort_tick(sorter *so) {
  if (--so->ticks <= 0) {
    lunar_charge(so->L, BATCH * UNITS_PER_ELEMENT);
    so->ticks = BATCH;
  }
}

/* Whether the value at a is less than the value at b (stack indices, absolute or negative). */
static int sort_less(sorter *so, int a, int b) {
  lua_State *L = so->L;
  sort_tick(so);
  if (!so->has_function) return lua_compare(L, a, b, LUA_OPLT);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, a - (a < 0)); /* a negative index moves down by the value just pushed */
  lua_pushvalue(L, b - (b < 0) - (b < 0));
  lua_call(L, 2, 1);
  int less = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return less;
}

/* Whether t[i] < pivot (t_first) or pivot < t[i], the pivot at stack index `pivot` (absolute).
   t[i] is read straight into the comparator's argument slot and not kept: the partition scans
   compare many values and keep only the two they stop at, which they read again. */
static int sort_below(sorter *so, lua_Integer i, int pivot, int t_first) {
  lua_State *L = so->L;
  sort_tick(so);
  int less;
  if (!so->has_function) {
    lua_geti(L, 1, i);
    less = t_first ? lua_compare(L, -1, pivot, LUA_OPLT) : lua_compare(L, pivot, -1, LUA_OPLT);
  } else {
    lua_pushvalue(L, 2);
    if (t_first) {
      lua_geti(L, 1, i);
      lua_pushvalue(L, pivot);
    } else {
      lua_pushvalue(L, pivot);
      lua_geti(L, 1, i);
    }
    lua_call(L, 2, 1);
    less = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  return less;
}

/* t[i] = value on top (popped). */
static void sort_set(sorter *so, lua_Integer i) {
  sort_tick(so);
  lua_seti(so->L, 1, i);
}

static void sort_swap(sorter *so, lua_Integer i, lua_Integer j) {
  lua_geti(so->L, 1, i);
  lua_geti(so->L, 1, j);
  sort_set(so, i);
  sort_set(so, j);
}

/* Orders t[i] and t[j] (i < j). */
static void sort_pair(sorter *so, lua_Integer i, lua_Integer j) {
  lua_geti(so->L, 1, i);
  lua_geti(so->L, 1, j);
  if (sort_less(so, -1, -2)) {
    sort_set(so, i);
    sort_set(so, j);
  } else {
    lua_pop(so->L, 2);
  }
}

static void sift_down(sorter *so, lua_Integer lo, lua_Integer root, lua_Integer count) {
  lua_State *L = so->L;
  for (;;) {
    lua_Integer child = 2 * root + 1;
    if (child >= count) return;
    lua_geti(L, 1, lo + child);
    if (child + 1 < count) {
      lua_geti(L, 1, lo + child + 1);
      if (sort_less(so, -2, -1)) {
        lua_remove(L, -2);
        child++;
      } else {
        lua_pop(L, 1);
      }
    }
    lua_geti(L, 1, lo + root);
    if (!sort_less(so, -1, -2)) {
      lua_pop(L, 2);
      return;
    }
    sort_set(so, lo + child); /* the root's value goes down, the child's up */
    sort_set(so, lo + root);
    root = child;
  }
}

static void heap_sort(sorter *so, lua_Integer lo, lua_Integer hi) {
  lua_Integer count = hi - lo + 1;
  for (lua_Integer root = count / 2; root-- > 0;) sift_down(so, lo, root, count);
  for (lua_Integer last = count - 1; last > 0; last--) {
    sort_swap(so, lo, lo + last);
    sift_down(so, lo, 0, last);
  }
}

static void quick_sort(sorter *so, lua_Integer lo, lua_Integer hi, int depth) {
  lua_State *L = so->L;
  while (hi > lo) {
    sort_pair(so, lo, hi);
    if (hi - lo == 1) return;
    if (depth-- == 0) {
      heap_sort(so, lo, hi);
      return;
    }
    /* Median of three: t[lo] <= t[mid] <= t[hi]; the pivot waits at hi - 1. */
    lua_Integer mid = lo + (hi - lo) / 2;
    sort_pair(so, lo, mid);
    sort_pair(so, mid, hi);
    if (hi - lo == 2) return;
    lua_geti(L, 1, mid);
    lua_pushvalue(L, -1);
    lua_geti(L, 1, hi - 1);
    sort_set(so, mid);
    sort_set(so, hi - 1); /* the pivot stays on the stack below the scans' values */
    int pivot = lua_gettop(L);
    lua_Integer i = lo, j = hi - 1;
    for (;;) {
      /* t[hi - 1] (the pivot) stops the upward scan and t[lo] the downward one, unless the
         order is inconsistent. */
      while (sort_below(so, ++i, pivot, 1)) {
        if (i >= hi - 1) luaL_error(L, "invalid order function for sorting");
      }
      while (sort_below(so, --j, pivot, 0)) {
        if (j <= lo) luaL_error(L, "invalid order function for sorting");
      }
      lua_geti(L, 1, i);
      if (j < i) break; /* t[i]'s value goes to hi - 1, below it the pivot */
      lua_geti(L, 1, j);
      sort_set(so, i); /* t[i] = t[j]'s value, t[j] = t[i]'s */
      sort_set(so, j);
    }
    /* The pivot to its place at i, t[i]'s value to hi - 1. */
    sort_set(so, hi - 1);
    sort_set(so, i);
    /* Recursion on the smaller side keeps the C stack shallow; the larger side loops. */
    if (i - lo < hi - i) {
      quick_sort(so, lo, i - 1, depth);
      lo = i + 1;
    } else {
      quick_sort(so, i + 1, hi, depth);
      hi = i - 1;
    }
  }
}

/* table.sort(list [, comp]) */
static int limited_sort(lua_State *L) {
  lua_Integer n = checked_length(L, 1, NEEDS_INDEX | NEEDS_NEWINDEX);
  if (n > 1) {
    luaL_argcheck(L, n < INT_MAX, 1, "array too big");
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    int depth = 0;
    for (lua_Integer k = n; k > 0; k >>= 1) depth += 2;
    sorter so = {L, BATCH, !lua_isnil(L, 2)};
    quick_sort(&so, 1, n, depth);
    lunar_charge(L, (BATCH - so.ticks) * UNITS_PER_ELEMENT);
  }
  return 0;
}

/* Replaces the functions in the table library on top of the stack. */
void lunar_open_limited_tables(lua_State *L) {
  static const luaL_Reg functions[] = {
    {"move", limited_move},     {"insert", limited_insert}, {"remove", limited_remove}, {"concat", limited_concat},
    {"unpack", limited_unpack}, {"sort", limited_sort},     {NULL, NULL}};
  luaL_setfuncs(L, functions, 0);
  lua_getfield(L, -1, "pack");
  lua_pushcclosure(L, limited_pack, 1);
  lua_setfield(L, -2, "pack");
}
