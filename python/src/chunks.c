/* The chunks of the arenas parse_files hands out, kept for reuse. A block's
 * arena is freed on the calling thread once its Messages are gone, while
 * the batch's workers fill new ones: through malloc, each new chunk was
 * fresh pages (a page fault for every 4 KiB a worker copied a message
 * into). Freed chunks of one size wait here, up to POOL_MAX bytes, for the
 * next arena; any thread may take or give one. */
#include "pyadexp.h"

#include <pthread.h>
#include <stdlib.h>

#define POOL_MAX ((size_t)32 << 20)

typedef struct free_chunk {
    struct free_chunk *next;
    size_t size;
} free_chunk;

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static free_chunk *pool;
static size_t pool_bytes;
static size_t pool_chunk;      /* the chunk size of the arenas: a chunk of
                                  it and the arena's header is kept */

static int poolable(size_t size)
{
    return size >= pool_chunk && size - pool_chunk <= 256 && size >= sizeof(free_chunk);
}

static void *pool_alloc(void *ctx, size_t size)
{
    (void)ctx;
    pthread_mutex_lock(&pool_mu);
    free_chunk *c = pool;
    if (c && c->size == size) {
        pool = c->next;
        pool_bytes -= size;
    } else {
        c = NULL;
    }
    pthread_mutex_unlock(&pool_mu);
    return c ? (void *)c : malloc(size);
}

static void pool_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    pthread_mutex_lock(&pool_mu);
    int keep = poolable(size) && (!pool || pool->size == size) && pool_bytes + size <= POOL_MAX;
    if (keep) {
        free_chunk *c = ptr;
        c->next = pool;
        c->size = size;
        pool = c;
        pool_bytes += size;
    }
    pthread_mutex_unlock(&pool_mu);
    if (!keep)
        free(ptr);
}

void pa_pool_arena_init(adexp_arena *a, size_t chunk_size)
{
    adexp_allocator hooks = {pool_alloc, pool_free, NULL};
    pthread_mutex_lock(&pool_mu);
    pool_chunk = chunk_size;
    pthread_mutex_unlock(&pool_mu);
    adexp_arena_init(a, &hooks);
    a->chunk_size = chunk_size;
}

void pa_pool_drain(void)
{
    pthread_mutex_lock(&pool_mu);
    free_chunk *c = pool;
    pool = NULL;
    pool_bytes = 0;
    pthread_mutex_unlock(&pool_mu);
    while (c) {
        free_chunk *next = c->next;
        free(c);
        c = next;
    }
}
