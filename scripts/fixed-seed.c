/*
 * Preloaded by scripts/instructions and scripts/transaction-figures under valgrind: Lua seeds the
 * hashing of its strings with the time, so two runs of one workload would place strings in other
 * slots of their tables and differ by a few hundred instructions per action. A time that never
 * changes gives every run the same seed (the program's addresses, which also feed it, are the same
 * under valgrind), and figures that repeat.
 */
#include <time.h>

time_t time(time_t *t) {
  if (t != NULL) *t = 1700000000;
  return 1700000000;
}
