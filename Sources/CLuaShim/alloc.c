#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * The allocator: counts every byte against the host's ceiling and refuses growth past it. Lua then
 * runs an emergency collection, retries once, and raises a memory error (LUA_ERRMEM). Shrinking and
 * freeing are never refused: Lua relies on them succeeding.
 *
 * Why a pool: a reducer call allocates a few small objects (the action table and its hash part,
 * the root state proxy) that the collector frees soon after, and malloc/free cost more than all of
 * the call's own bookkeeping. Blocks of up to 128 bytes come from free lists, one per 16-byte size
 * class, cut from 64 KiB chunks that go back to the system only when the state is closed.
 *
 * Lua always passes the size of the block it frees or resizes, so the size says where a block came
 * from: every block Lua holds at 128 bytes or less is a pool block, or at least as large as one of
 * its class (see `adopt` below).
 */

#define POOL_LIMIT 128
#define POOL_CHUNK (64 * 1024)
#define POOL_HEADER 16 /* a chunk's link to the next, padded so that blocks stay 16-byte aligned */

static size_t size_class(size_t n) { return (n - 1) >> 4; }

static void *pool_take(lunar_host *h, size_t n) {
  size_t c = size_class(n);
  void *block = h->pool_free[c];
  if (block != NULL) {
    h->pool_free[c] = *(void **)block;
    return block;
  }
  size_t size = (c + 1) << 4;
  if (h->pool_left < size) {
    void *chunk = malloc(POOL_CHUNK);
    if (chunk == NULL) return NULL;
    *(void **)chunk = h->pool_chunks;
    h->pool_chunks = chunk;
    h->pool_cursor = (char *)chunk + POOL_HEADER;
    h->pool_left = POOL_CHUNK - POOL_HEADER;
  }
  block = h->pool_cursor;
  h->pool_cursor += size;
  h->pool_left -= size;
  return block;
}

static void pool_give(lunar_host *h, void *block, size_t n) {
  size_t c = size_class(n);
  *(void **)block = h->pool_free[c];
  h->pool_free[c] = block;
}

static void *take(lunar_host *h, size_t n) { return n <= POOL_LIMIT ? pool_take(h, n) : malloc(n); }

static void give(lunar_host *h, void *block, size_t n) {
  if (n <= POOL_LIMIT) pool_give(h, block, n);
  else free(block);
}

/* A resize that changes where the block lives (pool or system, or another size class). */
static void *move(lunar_host *h, void *ptr, size_t old, size_t nsize) {
  void *block = take(h, nsize);
  if (block == NULL) {
    /* NB: a shrink must not fail. Keeping the larger block is always safe: freed later with its
       new, smaller size, it serves that size's class (a system block adopted this way is never
       given back to the system; this happens only when malloc itself has failed). */
    return nsize < old ? ptr : NULL;
  }
  memcpy(block, ptr, old < nsize ? old : nsize);
  give(h, ptr, old);
  return block;
}

void *lunar_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lunar_host *h = (lunar_host *)ud;
  size_t old = ptr ? osize : 0; /* for new blocks osize holds the object's type */
  if (nsize == 0) {
    if (ptr != NULL) give(h, ptr, old);
    h->bytes_in_use -= old;
    return NULL;
  }
  if (nsize > old && h->bytes_limit != 0 && h->bytes_in_use - old + nsize > h->bytes_limit) {
    h->memory_refusals++;
    return NULL;
  }
  void *block;
  if (ptr == NULL) block = take(h, nsize);
  else if (old <= POOL_LIMIT && nsize <= POOL_LIMIT && size_class(old) == size_class(nsize)) block = ptr;
  else if (old > POOL_LIMIT && nsize > POOL_LIMIT) block = realloc(ptr, nsize);
  else block = move(h, ptr, old, nsize);
  if (block == NULL) {
    h->memory_refusals++;
    return NULL;
  }
  h->bytes_in_use = h->bytes_in_use - old + nsize;
  return block;
}

void lunar_pool_release(lunar_host *h) {
  lunar_watch_unregister(h);
  void *chunk = h->pool_chunks;
  while (chunk != NULL) {
    void *next = *(void **)chunk;
    free(chunk);
    chunk = next;
  }
  memset(h->pool_free, 0, sizeof h->pool_free);
  h->pool_chunks = NULL;
  h->pool_cursor = NULL;
  h->pool_left = 0;
}
