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
    BATCH_BUFFER,              /* the caller's bytes: data, len */
    BATCH_FAIL,                /* failed before parsing: note says why */
    BATCH_SKIP                 /* skipped entry of a walk: note says why */
};

/* Queued inputs are appended by the walker while the workers read them,
 * so nothing may move: entries live in fixed-size segments and strings in
 * blocks that are never reallocated. An entry is visible to workers once
 * `published` counts it (release store after it is written). */
typedef struct batch_entry {
    const char *path, *note;   /* note: NULL for files */
    const char *data;          /* BATCH_BUFFER: the caller's bytes */
    size_t len;
    int kind;
} batch_entry;

/* An input given before run: a path to walk, or a named buffer. */
typedef struct batch_root {
    char *path;
    const char *data;          /* non-NULL: a buffer of len bytes */
    size_t len;
} batch_root;

#define BATCH_SEG_BITS 12
#define BATCH_SEG_SIZE ((size_t)1 << BATCH_SEG_BITS)   /* entries per segment */
#define BATCH_MAX_SEGS ((size_t)1 << 16)             /* 268 million inputs */

/* A growable byte string for diagnostics. */
typedef struct batch_str {
    char *data;
    size_t len, cap;
} batch_str;

typedef struct batch_block batch_block;

struct adexp_batch {
    adexp_batch_options o;
    batch_entry **seg;         /* BATCH_MAX_SEGS segment pointers */
    atomic_size_t published;   /* entries visible to the workers */
    size_t n;                  /* entries written (the walker's own count) */
    batch_block *blocks;       /* string storage, newest first */
    char *bptr, *bend;         /* free space in the newest block */
    batch_root *roots;         /* inputs given before run: walked by run */
    size_t nroots, roots_cap;
    int nomem;                 /* a queueing allocation failed */
    uint64_t filtered;         /* walked files left out by o.include */
    int ran;
    double t0;
    void (*on_publish)(void *ctx);   /* run's hook, every so many entries */
    void *publish_ctx;
};

static inline const batch_entry *batch_entry_at(const adexp_batch *b, size_t i)
{
    return &b->seg[i >> BATCH_SEG_BITS][i & (BATCH_SEG_SIZE - 1)];
}

/* batch_inputs.c */
int batch_push(adexp_batch *b, int kind, const char *path, const char *note);
/* Walk the roots into the queue (run calls it while the workers go). */
void batch_walk_roots(adexp_batch *b);
void batch_inputs_free(adexp_batch *b);

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
    adexp_findings findings;   /* validation's, reused (its line cache) */
    uint64_t messages_warned;
} batch_worker;

int batch_worker_init(batch_worker *w, const adexp_batch *b);
void batch_worker_fini(batch_worker *w);
void batch_do_entry(batch_worker *w, const batch_entry *e);

/* batch_emit.c: the output of one message, in the batch's format. */
adexp_status batch_emit(batch_worker *w, const char *path, const adexp_msg *m);

/* batch_validate.c: validates m into w->findings, writes a line per
 * finding to w->err and counts a warned message. Returns ADEXP_OK or
 * ADEXP_E_NOMEM. */
adexp_status batch_validate(batch_worker *w, const char *path, const adexp_msg *m);
/* Appends "warnings":[...] of w->findings to the JSON line just written at
 * the end of w->out. Returns ADEXP_OK or ADEXP_E_NOMEM. */
adexp_status batch_json_warnings(batch_worker *w);

int batch_str_printf(batch_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void batch_str_free(batch_str *s);

#endif
