/* Batch driver internals shared by lib/batch*.c; not installed. */
#ifndef ADEXP_BATCH_INTERNAL_H
#define ADEXP_BATCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "adexp.h"
#include "adexp_batch.h"
#include "batch_reader.h"
#include <zlib.h>

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
typedef struct walk_seen walk_seen;

/* batch_output.c: the output descriptor, with what went through it. */
typedef struct batch_output {
    int fd;
    uint64_t bytes, lines;     /* written; complete lines among them */
    size_t partial;            /* bytes written after the last complete line */
    int error;                 /* errno of the write that failed, or 0 */
} batch_output;
/* Write p[0..n). Returns 0 or an errno; after a failure nothing more is
 * written, and a regular file is cut back to its last complete line. */
int batch_output_write(batch_output *o, const char *p, size_t n);

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
    batch_output output;       /* o.out_fd and its counts */
    int out_is_file;           /* o.out_fd is a regular file: out_dev, out_ino */
    dev_t out_dev;             /* the walk leaves it out */
    ino_t out_ino;
    walk_seen *seen;           /* directories walked, by identity */
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
/* batch_seen.c: 1 if (dev, ino) was added before, 0 if now, -1 no memory. */
int batch_seen_add(walk_seen **s, dev_t dev, ino_t ino);
void batch_seen_free(walk_seen *s);

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

/* batch_emit.c: the output of one message, in the batch's format. */
adexp_status batch_emit(batch_worker *w, const char *path, const adexp_msg *m);

/* batch_file.c, for the other readers of inputs: a failed input, a
 * skipped one, and the bytes of one input parsed like a file. */
void batch_fail(batch_worker *w, const char *path, const char *why);
void batch_note(batch_worker *w, const char *path, const char *note);
void batch_parse_input(batch_worker *w, const char *path, const char *in, size_t len);

/* batch_archive.c: compressed files and archives, known by their first
 * bytes; batch_unpack parses each member of data[0..len). */
enum { BATCH_PLAIN, BATCH_COMPRESSED, BATCH_ARCHIVE };
int batch_packed_kind(const char *data, size_t len);
void batch_unpack(batch_worker *w, const char *path, const char *data, size_t len);

/* batch_gzip.c: a reader of the gzip data data[0..len) (members one after
 * another), CRC and length checked. Returns 0, or -1 with r.error set. */
typedef struct batch_gzip {
    batch_reader r;
    z_stream z;
    size_t len;
    uint64_t out_total;        /* bytes given out so far */
    int done;
} batch_gzip;
int batch_is_gzip(const char *data, size_t len);
int batch_gzip_open(batch_gzip *g, const char *data, size_t len);

/* batch_nul.c: a NUL byte inside message m of in becomes its error. The
 * cursor starts zeroed with line 1 for each input. Returns 1 if added. */
typedef struct batch_lines {
    size_t pos, line_start;
    uint32_t line;
} batch_lines;
int batch_mark_nul(adexp_arena *arena, batch_lines *c, const char *in, adexp_msg *m);

/* batch_names.c: appends name escaped for a diagnostic line. */
int batch_str_put_name(batch_str *s, const char *name);

int batch_str_printf(batch_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void batch_str_free(batch_str *s);

#endif
