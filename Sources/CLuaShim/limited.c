#include "internal.h"

/* The standard library functions that count their work against the call's limits. */
void lunar_open_limited_libraries(lua_State *L) {
  lunar_open_limited_base(L);
}
