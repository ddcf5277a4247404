/* Batch driver: a reader read ahead on a thread of its own, so that a
 * compressed input is decompressed while the worker parses what came
 * before (a .zst or .xz file at the speed of `zstd -dc | adexp-parse -`).
 *
 * The thread fills SLOTS buffers in turn from the inner reader, which only
 * it touches until batch_readahead_close has joined it; the worker takes
 * the filled ones in order. A failure of the inner reader comes after
 * every byte read before it, with its error. Used only for inputs whose
 * bytes are in memory (a mapped file, an archive's member), whose reads
 * never wait on a pipe, so that closing early never waits long. */
#include <stdlib.h>
#include <string.h>

#include "batch_internal.h"
#include "batch_readahead.h"

static int slot_full(const batch_readahead *ra)
{
    return ra->filled == BATCH_READAHEAD_SLOTS;
}

/* Fill one slot from the inner reader: its length; *end set to 1 at the
 * inner reader's end, -1 on its failure. */
static size_t fill(batch_readahead *ra, char *slot, int *end)
{
    size_t n = 0;
    while (n < BATCH_READAHEAD_SLOT) {
        ssize_t got = ra->in->read(ra->in, slot + n, BATCH_READAHEAD_SLOT - n);
        if (got <= 0) {
            *end = got == 0 ? 1 : -1;
            break;
        }
        n += (size_t)got;
    }
    if (ra->in->packed)
        atomic_store_explicit(&ra->packed_bytes, ra->in->packed(ra->in), memory_order_relaxed);
    return n;
}

static void *ahead_main(void *arg)
{
    batch_readahead *ra = arg;
    pthread_mutex_lock(&ra->mu);
    while (!ra->stop && !ra->end) {
        while (slot_full(ra) && !ra->stop)
            pthread_cond_wait(&ra->cv, &ra->mu);
        if (ra->stop)
            break;
        unsigned k = (ra->head + ra->filled) % BATCH_READAHEAD_SLOTS;
        pthread_mutex_unlock(&ra->mu);
        int end = 0;
        size_t n = fill(ra, ra->slot[k], &end);
        pthread_mutex_lock(&ra->mu);
        ra->len[k] = n;
        ra->filled++;
        ra->end = end;
        if (end < 0)
            memcpy(ra->error, ra->in->error, sizeof ra->error);
        pthread_cond_broadcast(&ra->cv);
    }
    pthread_mutex_unlock(&ra->mu);
    return NULL;
}

static ssize_t ahead_read(batch_reader *r, char *buf, size_t cap)
{
    batch_readahead *ra = (batch_readahead *)r;
    pthread_mutex_lock(&ra->mu);
    while (ra->filled == 0 && !ra->end)
        pthread_cond_wait(&ra->cv, &ra->mu);
    if (ra->filled == 0) {
        int end = ra->end;
        if (end < 0)
            memcpy(r->error, ra->error, sizeof r->error);
        pthread_mutex_unlock(&ra->mu);
        return end < 0 ? -1 : 0;
    }
    unsigned k = ra->head;
    size_t left = ra->len[k] - ra->pos;
    pthread_mutex_unlock(&ra->mu);
    /* slot k is the worker's until it is handed back */
    size_t n = left < cap ? left : cap;
    memcpy(buf, ra->slot[k] + ra->pos, n);
    ra->pos += n;
    if (ra->pos == ra->len[k]) {
        pthread_mutex_lock(&ra->mu);
        ra->head = (k + 1) % BATCH_READAHEAD_SLOTS;
        ra->filled--;
        ra->pos = 0;
        pthread_cond_broadcast(&ra->cv);
        pthread_mutex_unlock(&ra->mu);
        if (n == 0)            /* an empty last slot: the end, or the error */
            return ahead_read(r, buf, cap);
    }
    return (ssize_t)n;
}

static uint64_t ahead_packed(batch_reader *r)
{
    batch_readahead *ra = (batch_readahead *)r;
    return atomic_load_explicit(&ra->packed_bytes, memory_order_relaxed);
}

int batch_readahead_open(batch_readahead *ra, batch_reader *in)
{
    memset(ra, 0, sizeof *ra);
    ra->r.read = ahead_read;
    ra->r.packed = in->packed ? ahead_packed : NULL;
    ra->in = in;
    atomic_init(&ra->packed_bytes, 0);
    ra->block = batch_pages_grow(NULL, 0, BATCH_READAHEAD_SLOTS * BATCH_READAHEAD_SLOT);
    if (!ra->block)
        return -1;
    for (unsigned k = 0; k < BATCH_READAHEAD_SLOTS; k++)
        ra->slot[k] = ra->block + (size_t)k * BATCH_READAHEAD_SLOT;
    pthread_mutex_init(&ra->mu, NULL);
    pthread_cond_init(&ra->cv, NULL);
    if (pthread_create(&ra->thread, NULL, ahead_main, ra) != 0) {
        pthread_cond_destroy(&ra->cv);
        pthread_mutex_destroy(&ra->mu);
        batch_pages_free(ra->block, BATCH_READAHEAD_SLOTS * BATCH_READAHEAD_SLOT);
        ra->block = NULL;
        return -1;
    }
    return 0;
}

void batch_readahead_close(batch_readahead *ra)
{
    if (!ra->block)
        return;
    pthread_mutex_lock(&ra->mu);
    ra->stop = 1;
    pthread_cond_broadcast(&ra->cv);
    pthread_mutex_unlock(&ra->mu);
    pthread_join(ra->thread, NULL);
    pthread_cond_destroy(&ra->cv);
    pthread_mutex_destroy(&ra->mu);
    batch_pages_free(ra->block, BATCH_READAHEAD_SLOTS * BATCH_READAHEAD_SLOT);
    ra->block = NULL;
}
