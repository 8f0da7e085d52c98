#ifndef CLUNARFUZZ_H
#define CLUNARFUZZ_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, present when the binary is linked with -sanitize=fuzzer (scripts/fuzz).
// Declared weak so that an ordinary build links too: the tool then says how to build it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size))
    __attribute__((weak));

// Whether this binary was linked with libFuzzer.
static inline int lunar_fuzz_has_driver(void) { return LLVMFuzzerRunDriver != NULL; }

// Runs libFuzzer over `callback` with the command line's options and corpus folders.
static inline int lunar_fuzz_run(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t)) {
  return LLVMFuzzerRunDriver(argc, argv, callback);
}

#endif
