#include <stdlib.h>
#include "internal.h"

/* Push programs live outside the VM's allocator: they are host memory, freed right after use, and
   must not count against (or be refused by) the script's memory ceiling. */

void *lunar_buffer_realloc(void *buffer, size_t size) {
  void *grown = realloc(buffer, size);
  if (grown == NULL) abort(); /* the host itself is out of memory */
  return grown;
}

void lunar_buffer_free(void *buffer) { free(buffer); }
