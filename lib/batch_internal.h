/* Batch driver internals shared by lib/batch*.c; not installed. */
#ifndef ADEXP_BATCH_INTERNAL_H
#define ADEXP_BATCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "adexp.h"
#include "adexp_batch.h"

/* What a queued input is. Walk-time outcomes (a loop, a dangling link, a
 * skipped FIFO) are queued like files so that they are reported in input
 * order, by the worker that reaches them. */
enum batch_kind {
    BATCH_FILE,                /* a path to open and parse */
    BATCH_STDIN,               /* "-" */
    BATCH_FAIL,                /* failed before parsing: note says why */
    BATCH_SKIP                 /* skipped entry of a walk: note says why */
};

/* Paths and notes live in one growing pool and are named by offsets, so
 * queueing 100,000 files costs a few reallocations, not 100,000 mallocs. */
typedef struct batch_entry {
    size_t path, note;         /* offsets in batch->pool; note unused for files */
    int kind;
} batch_entry;

/* A growable byte string for diagnostics. */
typedef struct batch_str {
    char *data;
    size_t len, cap;
} batch_str;

struct adexp_batch {
    adexp_batch_options o;
    batch_entry *v;
    size_t n, cap;
    char *pool;
    size_t pool_len, pool_cap;
    int nomem;                 /* a queueing allocation failed */
    int ran;
    double t0;
};

/* batch_inputs.c */
int batch_push(adexp_batch *b, int kind, const char *path, const char *note);

/* batch_file.c: one worker's reusable state and the per-file work. */
typedef struct batch_worker {
    const adexp_batch *b;
    adexp_parser *parser;
    adexp_arena arena;
    char *in;                  /* read buffer, grown to the largest file */
    size_t in_cap;
    adexp_buf out;             /* NDJSON of the current chunk */
    batch_str err;             /* diagnostics of the current chunk */
    uint64_t files_ok, files_failed, skipped, messages, messages_failed, bytes;
} batch_worker;

int batch_worker_init(batch_worker *w, const adexp_batch *b);
void batch_worker_fini(batch_worker *w);
void batch_do_entry(batch_worker *w, const batch_entry *e);

int batch_str_printf(batch_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void batch_str_free(batch_str *s);

#endif
