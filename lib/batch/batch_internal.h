/* Batch driver internals shared by lib/batch*.c; not installed. */
#ifndef ADEXP_BATCH_INTERNAL_H
#define ADEXP_BATCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "adexp.h"
#include "adexp_batch.h"
#include "batch_nul.h"
#include "batch_reader.h"
#include "lines.h"
#include <zlib.h>

/* What a queued input is. Walk-time outcomes (a loop, a dangling link, a
 * skipped FIFO) are queued like files so that they are reported in input
 * order, by the worker that reaches them. */
enum batch_kind {
    BATCH_FILE,                /* a path to open and parse */
    BATCH_STDIN,               /* "-" */
    BATCH_BUFFER,              /* the caller's bytes: data, len */
    BATCH_FAIL,                /* failed before parsing: note says why */
    BATCH_SKIP,                /* skipped entry of a walk: note says why */
    BATCH_STREAM,              /* a FIFO or device named as a path: read as
                                  a stream, like standard input */
    BATCH_FD                   /* the caller's descriptor (number in len):
                                  read as a stream, not closed */
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
    int fd;                    /* >= 0: the caller's descriptor */
} batch_root;

#define BATCH_SEG_BITS 12
#define BATCH_SEG_SIZE ((size_t)1 << BATCH_SEG_BITS)   /* entries per segment */
#define BATCH_MAX_SEGS ((size_t)1 << 16)             /* 268 million inputs */

/* A growable byte string for diagnostics. */
typedef struct batch_str {
    char *data;
    size_t len, cap;
} batch_str;

/* What one chunk or piece of a run produced: kept, parked
 * and written together. */
typedef struct batch_result {
    adexp_buf out;             /* the messages' output; with on_item, the
                                  adexp_batch_item structs (batch_items.c) */
    uint64_t lines;            /* lines written into out (batch_emit): its
                                  messages, or with batch_rows_each its rows */
    batch_str err;             /* diagnostics */
    adexp_arena keep;          /* on_item: what the items point to */
    int keep_ready;            /* keep is initialised */
    const char *last_source;   /* the last item's source, in keep */
    size_t kept;               /* about the bytes taken in keep */
    int live;                  /* out is a live stream's, written as it comes:
                                  a database commits it at once */
} batch_result;

/* What a result holds, in bytes (output, diagnostics, kept items). */
static inline size_t batch_held(const batch_result *res)
{
    return res->out.len + res->err.len + res->kept;
}

typedef struct batch_block batch_block;
typedef struct walk_seen walk_seen;

/* batch_output.c: the output descriptor, with what went through it. */
typedef struct batch_output {
    int fd;
    adexp_batch_output_fn fn;  /* o.on_output: takes the bytes instead of fd */
    void *ctx;
    uint64_t bytes, lines;     /* written; complete lines among them */
    size_t partial;            /* bytes written after the last complete line */
    int error;                 /* errno of the write that failed, or 0 */
} batch_output;
/* Write p[0..n), which holds `lines` newlines, or BATCH_LINES_UNKNOWN
 * (then they are counted as written). Returns 0 or an errno; after a
 * failure nothing more is written, and a regular file is cut back to its
 * last complete line. */
#define BATCH_LINES_UNKNOWN UINT64_MAX
int batch_output_write(batch_output *o, const char *p, size_t n, uint64_t lines);
/* The same for n iovecs (advanced over what is written). */
struct iovec;
int batch_output_writev(batch_output *o, struct iovec *iov, int n, uint64_t lines);

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
    struct batch_sqlite *sqlite;   /* ADEXP_BATCH_SQLITE: the database, open
                                      while run runs */
};

/* The items go to the caller (on_item or on_items), not to an output. */
static inline int batch_gives_items(const adexp_batch_options *o)
{
    return o->on_item || o->on_items;
}

static inline const batch_entry *batch_entry_at(const adexp_batch *b, size_t i)
{
    return &b->seg[i >> BATCH_SEG_BITS][i & (BATCH_SEG_SIZE - 1)];
}

/* batch_inputs.c */
int batch_push(adexp_batch *b, int kind, const char *path, const char *note);
/* Walk the roots into the queue (run calls it while the workers go). */
void batch_walk_roots(adexp_batch *b);
void batch_inputs_free(adexp_batch *b);
/* batch_dirnames.c: one directory's names (each with its d_type byte) in
 * one buffer, sorted in strcmp's order (the walk's order). */
typedef struct batch_dirname {
    uint64_t key;              /* 8 of the name's bytes, for the sort */
    size_t off;                /* its record in text */
} batch_dirname;
typedef struct batch_dirnames {
    char *text;                /* records: d_type byte, name, NUL */
    size_t text_len, text_cap;
    batch_dirname *v;
    size_t n, cap;
} batch_dirnames;
void batch_dirnames_init(batch_dirnames *s);
void batch_dirnames_free(batch_dirnames *s);
/* Add name[0..len) (no NUL inside) of d_type type. 0, or -1: no memory. */
int batch_dirnames_add(batch_dirnames *s, const char *name, size_t len, unsigned char type);
/* Sort the names in strcmp's order. 0, or -1: no memory. */
int batch_dirnames_sort(batch_dirnames *s);
/* The i-th name (NUL-ended), its d_type byte in *type. */
const char *batch_dirnames_name(const batch_dirnames *s, size_t i, unsigned char *type);
/* batch_seen.c: 1 if (dev, ino) was added before, 0 if now, -1 no memory. */
int batch_seen_add(walk_seen **s, dev_t dev, ino_t ino);
void batch_seen_free(walk_seen *s);

/* batch_file.c: one worker's reusable state and the per-file work. */
typedef struct batch_run batch_run;
/* batch_map.c: a mapped file; short_at is SIZE_MAX, or where it was found
 * short (it was truncated while mapped). */
typedef struct batch_map {
    _Atomic int claimed;
    _Atomic(const char *) base;
    size_t len;
    int fd;                    /* the file, for its size when found short */
    _Atomic size_t short_at;
} batch_map;

batch_map *batch_map_file(int fd, size_t size);
const char *batch_map_data(const batch_map *m);
void batch_map_free(batch_map *m);

/* batch_source.c: the last source quoted for JSON. */
typedef struct batch_source {
    adexp_buf name;            /* its bytes and NUL */
    adexp_buf quoted;          /* its JSON string */
} batch_source;

typedef struct batch_worker {
    const adexp_batch *b;
    batch_run *run;            /* batch.c's pool state (NULL outside a run) */
    size_t chunk;              /* the chunk being done */
    adexp_parser *parser;
    adexp_arena arena;
    char *in;                  /* read buffer, grown to the largest file */
    size_t in_cap;
    char *packed;              /* a packed file read into in is moved here */
    size_t packed_cap;         /* while in holds its decompressed stream */
    batch_result res;          /* output of the current chunk */
    uint64_t files_ok, files_failed, skipped, messages, messages_failed, bytes;
    adexp_buf scratch;         /* batch_rebase.c: a piece's output rebuilt */
    adexp_findings findings;   /* validation's, reused (its line cache) */
    uint64_t messages_warned;
    uint64_t messages_left_out;   /* not of a title the selection keeps */
    uint64_t inputs_failed;    /* failed whole (batch_fail, batch_map_report) */
    batch_source source;
    const batch_map *map;      /* the mapped file being parsed, or NULL */
    struct batch_marks *index_marks;   /* a piece's: where a message's index is
                                          printed in res.err (batch_split.c),
                                          or NULL */
} batch_worker;

/* Whether message msg of the bytes at in reaches past where m was found
 * short (0 when m is NULL or whole, or in is not m's). */
int batch_map_lost(const batch_map *m, const char *in, const adexp_msg *msg);
/* Whether m was found short; if so, one line about it into w->res.err. */
int batch_map_report(batch_worker *w, const char *path, const batch_map *m);
adexp_slice batch_json_source(batch_worker *w, const char *path);
void batch_source_free(batch_source *c);

int batch_worker_init(batch_worker *w, const adexp_batch *b);
void batch_worker_fini(batch_worker *w);
void batch_do_entry(batch_worker *w, const batch_entry *e);

/* Parse every message of in[0..len) into w's buffers, flushing them at
 * FLUSH_BYTES when w holds the turn; a NUL byte in a message is its error. */
void batch_parse_all(batch_worker *w, const char *path, const char *in, size_t len);
/* A whole input's totals: len bytes, count messages of which bad failed;
 * the input is failed ("no ADEXP message"), failed by its messages, or ok. */
void batch_input_counted(batch_worker *w, const char *path, size_t len, uint64_t count,
                         uint64_t bad);
/* Report m's errors into w->res.err; index_at: where the message's index was
 * printed, or NULL (batch_rebase.c patches it for a piece). */
void batch_report_errors(batch_worker *w, const char *path, const adexp_msg *m,
                         size_t *index_at);
/* batch_pages.c: a buffer of cap bytes (p NULL: none yet) grown to new_cap,
 * its bytes kept, without a copy: NULL when there is no memory (p is then
 * unchanged). w->in, w->packed and archive members' buffers are these. */
void *batch_pages_grow(void *p, size_t cap, size_t new_cap);
void batch_pages_free(void *p, size_t cap);
/* Make room in w->in for need bytes plus a spare one, keeping its bytes;
 * max: the most it will hold (the room does not double past it). */
int batch_grow_in(batch_worker *w, size_t need, size_t max);
/* -1: reported as failed (too large, empty, binary, no '-'); else 0. */
int batch_check_content(batch_worker *w, const char *path, const char *in, size_t len);
void batch_fail(batch_worker *w, const char *path, const char *why);

/* batch_severity.c: a diagnostic line's head, "PATH:LINE:COL: error: "
 * ("PATH: error: " when line is 0), in w's error text. */
enum batch_severity { BATCH_ERROR, BATCH_WARNING, BATCH_NOTE };
void batch_put_head(batch_worker *w, const char *path, unsigned line, unsigned col,
                    enum batch_severity sev);

/* batch.c: writing as an entry goes, for entries that do (streams, big
 * inputs). batch_turn waits until w's chunk may write (the chunks before
 * it are written; at once when unordered), helping with a big input's
 * pieces meanwhile, and writes what w holds. batch_write writes out and
 * err now: the caller holds the turn. Both return nonzero once the output
 * has failed (the run stops). */
#define BATCH_FLUSH_BYTES ((size_t)1 << 20)
/* A file or stream is binary (failed with one line, not a parse error per
 * message) when its first BATCH_BINARY_PROBE bytes hold a NUL byte and it
 * holds no "-TITLE" (batch_file.c, batch_stream.c). */
#define BATCH_BINARY_PROBE 4096
int batch_turn(batch_worker *w);
int batch_write(batch_worker *w, batch_result *res);
int batch_stopped(const batch_worker *w);
/* Write w's output if it is big enough and may be written (see batch.c). */
void batch_maybe_flush(batch_worker *w);

/* batch_split.c: a big input cut at top-level -TITLE into pieces that the
 * pool parses side by side; output identical to one parse of the whole. */
typedef struct batch_split batch_split;
/* Whether an input of len bytes in memory is cut into pieces under o (the
 * options' part of the rule; batch_split_wanted adds the worker's). */
int batch_split_pays(const adexp_batch_options *o, size_t len);
int batch_split_wanted(const batch_worker *w, size_t len);
/* Parse in[0..len) in pieces; the caller holds the turn. */
void batch_split_parse(batch_worker *w, const char *path, const char *in, size_t len);
/* Parse one piece of s if one may be taken; 1 if one was. */
int batch_split_help(batch_split *s, batch_worker *w);
/* batch.c: the split being parsed, for the other workers to help. */
void batch_split_publish(batch_worker *w, batch_split *s);

/* batch_stream.c: an input read in pieces, parsed as its messages end.
 * live: a descriptor, whose messages are written (and flushed) as they
 * end; else (a decompressed input, an archive member) written in blocks.
 * rd is closed at the end. */
void batch_stream_parse(batch_worker *w, const char *path, batch_reader *rd, int live);
/* Bytes given to the parser by streams so far, all runs together: the
 * work, for the tests that check it grows linearly with the input. */
extern _Atomic uint64_t batch_stream_parsed;

/* batch_fd_reader.c: a reader over a descriptor (standard input, a FIFO,
 * a device). poll: the descriptor is O_NONBLOCK, wait with poll(). */
typedef struct batch_fd_reader {
    batch_reader r;
    int fd, poll;
    uint64_t offset;           /* bytes read so far */
} batch_fd_reader;
void batch_fd_reader_init(batch_fd_reader *f, int fd, int poll);

/* batch_rebase.c: messages parsed from a piece of an input (a cut of a big
 * file, the tail of a stream) given the numbers of the whole input. */
typedef struct batch_base {
    size_t offset;             /* the piece's first byte in the whole input */
    size_t index;              /* messages before the piece */
    uint64_t line;             /* line of the piece's first byte, from 1 */
    size_t column0;            /* bytes before the piece on that line */
} batch_base;
/* m parsed from a buffer that starts at base->offset of the whole input:
 * its offset, index and errors' offsets, lines and columns made those of
 * the whole input. Its fields' offsets are left as they are, for
 * validation (which finds the buffer by them), until batch_emit moves them
 * on (batch_rebase_fields) for the formats that write them. */
void batch_rebase_msg(adexp_msg *m, const batch_base *base);
void batch_rebase_fields(adexp_msg *m, size_t offset);
/* The findings of a message of that buffer made those of the whole input. */
void batch_rebase_findings(adexp_findings *f, const batch_base *base);
/* Positions of decimal numbers in a buffer, to add a count to later; num:
 * the numbers themselves, when the marks were made by batch_mark_number
 * (then the patch need not read the buffer back), or NULL. */
typedef struct batch_marks {
    size_t *v;
    uint64_t *num;
    size_t n, cap;
} batch_marks;
int batch_mark(batch_marks *mk, size_t pos);
/* A mark at pos of the number value written there (all of mk's marks alike). */
int batch_mark_number(batch_marks *mk, size_t pos, uint64_t value);
void batch_marks_free(batch_marks *mk);
/* The iovecs that write data[0..len) with add added to the number at each
 * mark, from pos on: at most max, two per mark, with the marks' digits in
 * digits[i / 2]. Returns how many; 0 when all is written. */
typedef struct batch_patch_pos {
    size_t mark, at;
} batch_patch_pos;
struct iovec;
size_t batch_patch_iov(const char *data, size_t len, const batch_marks *mk,
                       batch_patch_pos *pos, uint64_t add, struct iovec *iov,
                       char (*digits)[24], size_t max);
/* The line ends in the iovecs batch_patch_iov gave from `from` to `to`, when
 * each line has one mark, its message's index (JSON): the data before mark
 * k > 0 holds line k - 1's end, and the tail the last line's. */
uint64_t batch_patch_lines(batch_patch_pos from, batch_patch_pos to, size_t len);
/* batch.c: batch_write of data[0..len) as batch_patch_iov gives it, with no copy. */
int batch_write_patched(batch_worker *w, const char *data, size_t len,
                        const batch_marks *mk, uint64_t add);
/* Copies data[0..len) into out with add added to the number at each mark. */
int batch_patch_numbers(adexp_buf *out, const char *data, size_t len,
                        const batch_marks *mk, uint64_t add);

/* batch_emit.c: the output of one message, in the batch's format. base:
 * the numbers of the piece or stream tail m was parsed from (rebased by
 * batch_rebase_msg), or NULL for a whole input. */
adexp_status batch_emit(batch_worker *w, const char *path, adexp_msg *m,
                        const batch_base *base);
/* Whether each message written is one line of the output holding its
 * index mark (JSON, the view), which a patched block's lines are counted by. */
int batch_line_each(const adexp_batch *b);
/* Whether a block's lines (batch_result's) are its rows, which are its
 * newlines (CSV and TSV, as batch_emit counts them). */
int batch_rows_each(const adexp_batch *b);
/* Whether a block's newlines are its batch_result lines, so that they are
 * not counted again as it is written (batch_output_write). */
int batch_lines_known(const adexp_batch *b);
/* What the output starts with (the CSV header row), written to out_fd
 * before the workers start. Returns 0, or an errno. */
int batch_emit_header(const adexp_batch *b);

/* batch_sqlite.c: --format sqlite. The workers write each message as
 * lines (batch_sqlite_rows); the one writer, in input order, puts them in
 * the database's tables, a transaction per BATCH_SQLITE_TXN messages. */
#define BATCH_SQLITE_TXN 10000
#define BATCH_SQLITE_DIGITS 10 /* of the lengths and counts in its lines */
typedef struct batch_sqlite batch_sqlite;
/* Opens o->db_path (made if new, its tables too); NULL with a sentence in
 * err (cap bytes), also when built without SQLite. */
batch_sqlite *batch_sqlite_open(const adexp_batch_options *o, char *err, size_t cap);
/* The CSV selections the lines are written with: the messages' columns
 * (points 0), the route points' rows (1). */
const adexp_select *batch_sqlite_select(const batch_sqlite *s, int points);
/* Puts the lines p[0..n) (whole messages) in the tables, committed if now
 * or if the transaction is full; *messages: those committed now. 0, or -1
 * (batch_sqlite_error says why). */
int batch_sqlite_put(batch_sqlite *s, const char *p, size_t n, int now, uint64_t *messages);
const char *batch_sqlite_error(const batch_sqlite *s);
/* Commits what is pending if ok (else rolls it back) and closes; *messages:
 * those committed now. 0, or -1 with a sentence in err. */
int batch_sqlite_close(batch_sqlite *s, int ok, uint64_t *messages, char *err, size_t cap);
/* batch_sqlite_rows.c: message m's lines into w->res.out. */
adexp_status batch_sqlite_rows(batch_worker *w, const char *path, const adexp_msg *m);

/* batch.c: progress while an input is read, for the progress line: text
 * bytes parsed, compressed bytes taken in, messages, since the last call
 * (a no-op without a progress line). */
void batch_progress(batch_worker *w, uint64_t text, uint64_t packed, uint64_t msgs);
#define PROGRESS_BYTES ((size_t)1 << 20)   /* told at least this often */

/* batch_validate.c: the findings of m in w->findings (given the whole
 * input's numbers by base, as batch_emit's) and st, validation's status:
 * writes a line per finding to w->res.err and counts a warned message.
 * Returns st. */
adexp_status batch_report_findings(batch_worker *w, const char *path, const adexp_msg *m,
                                   const batch_base *base, adexp_status st);
/* Validates m into w->findings and reports them (batch_report_findings);
 * a clean message costs no call more. Returns ADEXP_OK or ADEXP_E_NOMEM. */
static inline adexp_status batch_validate(batch_worker *w, const char *path,
                                          const adexp_msg *m, const batch_base *base)
{
    adexp_status st = adexp_validate(m, &w->arena, &w->findings);
    if (st == ADEXP_OK && !w->findings.n)
        return ADEXP_OK;
    return batch_report_findings(w, path, m, base, st);
}
/* Appends "warnings":[...] of w->findings to the JSON line just written at
 * the end of w->res.out. Returns ADEXP_OK or ADEXP_E_NOMEM. */
adexp_status batch_json_warnings(batch_worker *w);
/* Inserts sep and cell[0..n) before the end ("\n" or "\r\n") of every row
 * in out[from..]. Returns 1, or 0 when out of memory (out unchanged). */
int batch_rows_add_cell(adexp_buf *out, size_t from, char sep, const char *cell, size_t n);
/* A "warnings" cell of w->findings on each row written from `from` on. */
adexp_status batch_row_warnings(batch_worker *w, size_t from, char sep);

/* batch_file.c, for the other readers of inputs: a skipped input, and the
 * plain bytes of one input parsed like a file (checked, cut when big). */
void batch_note(batch_worker *w, const char *path, const char *note);
void batch_parse_input(batch_worker *w, const char *path, const char *in, size_t len);

/* batch_archive.c: compressed files and archives, known by their first
 * bytes; batch_unpack parses each member of data[0..len). */
enum { BATCH_PLAIN, BATCH_COMPRESSED, BATCH_ARCHIVE };
int batch_packed_kind(const char *data, size_t len);
void batch_unpack(batch_worker *w, const char *path, const char *data, size_t len);
/* A live stream (standard input, a FIFO): its first bytes tell whether it
 * is packed; plain, it is parsed as batch_stream_parse does; packed, its
 * members are parsed as streams. rd is not closed. */
void batch_stream_unpack(batch_worker *w, const char *path, batch_reader *rd);

/* batch_gzip.c: a reader of the gzip data data[0..len) (members one after
 * another), CRC and length checked. Returns 0, or -1 with r.error set. */
typedef struct batch_gzip {
    batch_reader r;
    z_stream z;
    uint64_t in_total;         /* gzip bytes taken in so far */
    uint64_t out_total;        /* bytes given out so far */
    int done;
    int failed;                /* r.error is set: every read fails */
    batch_reader *src;         /* batch_gzip_open_reader: the gzip bytes */
    unsigned char inbuf[1 << 16];
} batch_gzip;
int batch_is_gzip(const char *data, size_t len);
int batch_gzip_open(batch_gzip *g, const char *data, size_t len);
/* The same over the gzip bytes src gives (read as they are needed). */
int batch_gzip_open_reader(batch_gzip *g, batch_reader *src);

/* batch_items.c: with on_item, a message (copied) or a failed or skipped
 * input kept as an item of w's result; the writer hands the items of a
 * result to on_item (batch_items_deliver: 0, or ECANCELED when it said
 * stop) and empties it. A piece's messages get the index of those before. */
adexp_status batch_item_message(batch_worker *w, const char *path, const adexp_msg *m);
void batch_item_input(batch_worker *w, adexp_batch_item_kind kind, const char *path,
                      const char *why);
void batch_items_add_index(batch_result *res, uint64_t index);
int batch_items_deliver(const adexp_batch *b, batch_result *res);
void batch_items_free(batch_result *res);
/* Empty res: its output, diagnostics and items. */
void batch_result_clear(batch_result *res);

/* batch_nul.h: a NUL byte inside a message is its error. */

/* batch_names.c: appends name escaped for a diagnostic line. */
int batch_str_put_name(batch_str *s, const char *name);

int batch_str_printf(batch_str *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void batch_str_free(batch_str *s);

#endif
