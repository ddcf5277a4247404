/* A batch_reader read ahead on a thread of its own (batch_readahead.c).
 * Not installed. */
#ifndef ADEXP_BATCH_READAHEAD_H
#define ADEXP_BATCH_READAHEAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "batch_reader.h"

#define BATCH_READAHEAD_SLOTS 4u
#define BATCH_READAHEAD_SLOT ((size_t)256 << 10)

typedef struct batch_readahead {
    batch_reader r;            /* what the worker reads */
    batch_reader *in;          /* read by the thread only, until closed */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char *block, *slot[BATCH_READAHEAD_SLOTS];
    size_t len[BATCH_READAHEAD_SLOTS];
    unsigned head, filled;     /* the slot the worker reads; slots filled */
    size_t pos;                /* the worker's place in slot head */
    int end;                   /* 1: the inner reader ended; -1: it failed */
    int stop;                  /* the worker closed it */
    char error[256];           /* the inner reader's, when it failed */
    _Atomic uint64_t packed_bytes;
} batch_readahead;

/* Starts reading in on a new thread; ra->r then reads what it gave, in
 * order, its end or its failure last. Returns 0, or -1 (no memory or no
 * thread: nothing started, read in itself). */
int batch_readahead_open(batch_readahead *ra, batch_reader *in);
/* Stops the thread (after the read it is in) and frees the buffers; in is
 * the caller's to close. Accepts a reader that failed to open. */
void batch_readahead_close(batch_readahead *ra);

#endif
