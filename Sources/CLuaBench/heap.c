#include "CLuaBench.h"

#if defined(__APPLE__)
#include <malloc/malloc.h>
#else
#include <malloc.h>
#endif

/*
 * The bytes the process's allocator has handed out and not taken back: what the scale benchmark
 * (lunar-bench plugins) measures stores and VMs with. Unlike the resident set, it does not count
 * freed memory the allocator keeps for reuse.
 */
long long lunar_bench_heap_bytes(void) {
#if defined(__APPLE__)
  malloc_statistics_t stats;
  malloc_zone_statistics(NULL, &stats);
  return (long long)stats.size_in_use;
#elif defined(__GLIBC__)
  struct mallinfo2 info = mallinfo2();
  return (long long)(info.uordblks + info.hblkhd);
#else
  return -1;
#endif
}
