/*
 * libadexp batch driver: parse many files on a fixed pool of threads.
 *
 *   adexp_batch_options o = adexp_batch_options_default();
 *   o.jobs = 4;
 *   adexp_batch *b = adexp_batch_new(&o);
 *   adexp_batch_add_path(b, "archive/");      // file, directory or "-"
 *   adexp_batch_stats st;
 *   int rc = adexp_batch_run(b, &st);         // 0 all parsed, 1 some failed
 *   adexp_batch_free(b);
 *
 * Directories are walked recursively in byte order of names; hidden entries
 * and non-regular files met in a walk are skipped with a note, and files
 * whose name does not match the `include` pattern are counted as filtered. Every input
 * ends up counted as ok, failed or skipped, and each failure gets one line
 * "path[:line:col]: message" on the error descriptor, in input order unless
 * `unordered` is set.
 */
#ifndef ADEXP_BATCH_H
#define ADEXP_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "adexp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum adexp_batch_format {
    ADEXP_BATCH_JSON = 0,      /* one NDJSON line per message */
    ADEXP_BATCH_SUMMARY,       /* parse only, write nothing per message */
    ADEXP_BATCH_ADEXP,         /* the message written back as ADEXP
                                  (adexp_write, with the adexp options) */
    ADEXP_BATCH_VIEW,          /* the typed view, one JSON line per message */
    ADEXP_BATCH_CSV,           /* RFC 4180 rows after a header row */
    ADEXP_BATCH_TSV,           /* tab-separated rows after a header row */
    ADEXP_BATCH_SQLITE         /* typed tables in the SQLite database at
                                  db_path (appended to if it exists); out_fd
                                  is that file, kept out of walks */
} adexp_batch_format;

#define ADEXP_BATCH_DEFAULT_PIECE_SIZE ((size_t)1 << 20)

/* What adexp_batch_options.on_item is handed, in input order: each
 * message of every input, and each input that failed or was skipped
 * without one, named as the diagnostics name it. */
typedef enum adexp_batch_item_kind {
    ADEXP_BATCH_ITEM_MESSAGE = 0,   /* msg: a message of source */
    ADEXP_BATCH_ITEM_FAILED,   /* why: source failed ("empty file", "binary
                                  file (NUL byte at offset 8)", "No such file
                                  or directory", a corrupt archive's error) */
    ADEXP_BATCH_ITEM_SKIPPED   /* why: an entry of a walk or an archive that
                                  was passed over (hidden, not a regular file;
                                  a named directory with no file below it) */
} adexp_batch_item_kind;

typedef struct adexp_batch_item {
    adexp_batch_item_kind kind;
    const char *source;        /* the path as given or walked, "-", or
                                  ARCHIVE:MEMBER for a member of an archive */
    const adexp_msg *msg;      /* MESSAGE: index, offset, errors and their
                                  lines and columns those of the whole
                                  input, as the CLI prints them; else NULL */
    const char *why;           /* FAILED, SKIPPED: the CLI's text; else NULL */
} adexp_batch_item;

/* Called for each item, in input order (also with jobs > 1: messages are
 * parsed on the workers and handed over in order by the one whose turn it
 * is to write), never by two threads at once. The item and what it points
 * to live until the call returns: adexp_msg_copy keeps a message. Return
 * 0 to go on; nonzero stops the run as a failed output does (the stats'
 * output_error is then ECANCELED). */
typedef int (*adexp_batch_item_fn)(void *ctx, const adexp_batch_item *item);

/* The same items a run at a time (a chunk's, a piece's), in input order,
 * never by two threads at once: items[0..n) live until the call returns;
 * what they point to (messages, sources, whys) lives in *keep, which the
 * callee may take over by moving the struct out and leaving an empty arena
 * in *keep (adexp_arena_init, hooks and chunk_size its choice) for the
 * items that follow: the one taken is then the callee's to free, and no
 * message is copied again.
 * Return as on_item does. */
typedef int (*adexp_batch_items_fn)(void *ctx, const adexp_batch_item *items, size_t n,
                                    adexp_arena *keep);

/* Called with the output's bytes, in the order they would be written to
 * out_fd (the CSV or TSV header row first), never by two threads at once.
 * Return 0 to go on; nonzero stops the run as a failed write does (the
 * stats' output_error is then ECANCELED). */
typedef int (*adexp_batch_output_fn)(void *ctx, const char *data, size_t len);

typedef struct adexp_batch_options {
    unsigned jobs;             /* worker threads; 0: online CPUs */
    adexp_batch_format format;
    int unordered;             /* 1: write each chunk as soon as it is done */
    size_t max_file_size;      /* larger inputs fail; 0 (the default): no
                                  limit. A file is mapped, not held: only a
                                  stream holds bytes, one message at a
                                  time, bounded by parser.max_message_size
                                  (plus one read) when this is 0 */
    int out_fd;                /* NDJSON goes here (default 1) */
    int err_fd;                /* diagnostics go here (default 2) */
    int progress_fd;           /* progress line goes here; -1: none (default) */
    const char *include;       /* fnmatch(3) pattern: files met in a walk whose
                                  name does not match are left out and counted
                                  (NULL: every file); named files always count */
    const char *const *includes;  /* more such patterns, NULL-terminated (may
                                     be NULL): a walked file is kept if its
                                     name matches include or any of these */
    const char *const *excludes;  /* fnmatch(3) patterns, NULL-terminated (may
                                     be NULL): a walked file whose name matches
                                     one is left out and counted as filtered */
    adexp_options parser;      /* limits of each worker's parser */
    size_t piece_size;         /* with jobs > 1, an input of at least twice
                                  this many bytes is cut at top-level -TITLE
                                  into pieces of about this size, parsed side
                                  by side (output unchanged); 0: the default */
    adexp_write_options adexp; /* ADEXP_BATCH_ADEXP: layout, fold, indent
                                  (all 0 by default: line layout, values
                                  kept, no indent) */
    int validate;              /* 1: validate each message (adexp_validate):
                                  "warnings" in its JSON line, one line per
                                  finding on err_fd, a count in the stats */
    unsigned flush_idle_ms;    /* a live stream (standard input, a FIFO) idle
                                  this long whose held text parses as whole
                                  messages without error writes them without
                                  waiting for the next -TITLE; 0: never */
    int color;                 /* 1: the severity words of the diagnostics
                                  (error:, warning:, note:) in colour */
    const adexp_select *select;   /* --fields, --rows, --title (NULL: all,
                                     default CSV columns); kept by the caller
                                     until run returns */
    adexp_batch_item_fn on_item;  /* non-NULL: the items go to it instead
                                     of any output to out_fd (format, select
                                     and validate do not apply); the
                                     diagnostics still go to err_fd (-1:
                                     nowhere) */
    adexp_batch_items_fn on_items;   /* non-NULL: the items go to it, a run
                                        at a time, instead (on_item is not
                                        called) */
    void *item_ctx;            /* on_item's or on_items' ctx */
    const char *db_path;       /* ADEXP_BATCH_SQLITE: the database file */
    adexp_batch_output_fn on_output;   /* non-NULL: the output goes to it
                                          instead of to out_fd (not with
                                          on_item or on_items, nor
                                          ADEXP_BATCH_SQLITE) */
    void *output_ctx;          /* on_output's ctx */
} adexp_batch_options;

typedef struct adexp_batch_stats {
    uint64_t files;            /* files_ok + files_failed */
    uint64_t files_ok, files_failed;
    uint64_t skipped;          /* hidden or non-regular entries met in a walk */
    uint64_t filtered;         /* files met in a walk not matching include */
    uint64_t messages, messages_failed;
    uint64_t bytes;            /* bytes read from files that were parsed */
    double elapsed;            /* seconds, from adexp_batch_new to the end of run */
    int output_error;          /* errno of a failed write of the output, or 0 */
    uint64_t messages_warned;  /* with validate: messages with findings */
    uint64_t messages_left_out;   /* parsed, but not of a selected title */
    uint64_t messages_written; /* complete lines in the output (JSON: messages) */
    uint64_t bytes_written;    /* bytes in the output; after a failed write, a
                                  regular file is cut back to its last line */
    uint64_t inputs_not_read;  /* inputs queued but never read (the output failed) */
    uint64_t inputs_failed;    /* files_failed that failed whole (on_item's FAILED
                                  items: unreadable, empty, binary, no message,
                                  cut short), not for a message's errors */
} adexp_batch_stats;

typedef struct adexp_batch adexp_batch;

ADEXP_API adexp_batch_options adexp_batch_options_default(void);
/* Returns NULL when out of memory. */
ADEXP_API adexp_batch *adexp_batch_new(const adexp_batch_options *opts);
ADEXP_API void adexp_batch_free(adexp_batch *b);

/* Queue a file, a directory or "-" (standard input). Directories are walked
 * by adexp_batch_run, in its calling thread, while the workers already parse
 * what the walk found. Where no second worker could help and progress_fd is
 * -1, the calling thread parses the inputs itself: jobs 1 over at most 16
 * paths, none a directory; any jobs over one plain file too small to be cut
 * into pieces (under twice piece_size). A path that cannot be used becomes a
 * failed input, reported in its place by run. Returns 0, or -1 when out of
 * memory. */
ADEXP_API int adexp_batch_add_path(adexp_batch *b, const char *path);
/* Queue a buffer of messages held in memory, named name in the output and
 * the diagnostics. The bytes are not copied: keep them alive until run
 * returns. Returns 0, or -1 when out of memory. */
ADEXP_API int adexp_batch_add_buffer(adexp_batch *b, const char *name,
                                     const char *data, size_t len);
/* Queue a readable descriptor (a pipe, a socket, a file), read to its end
 * as a stream, like standard input, and named name; a regular file at its
 * start is read as that file named (mapped, cut across the workers), then
 * left at its end. The batch does not close it. Returns 0, or -1 when out
 * of memory. */
ADEXP_API int adexp_batch_add_fd(adexp_batch *b, const char *name, int fd);
/* Queue each line of the file list (one path per line, "-": standard
 * input). Returns 0, or an errno if the list cannot be read; EILSEQ when
 * it holds a NUL byte (then nothing is queued). */
ADEXP_API int adexp_batch_add_list(adexp_batch *b, const char *list);
/* The same; with nul = 1 the paths are ended by NUL bytes instead (find
 * -print0, xargs -0), and may hold newlines. On EILSEQ, *bad_line (may be
 * NULL) gets the 1-based line of the first NUL byte. */
ADEXP_API int adexp_batch_add_list_sep(adexp_batch *b, const char *list, int nul,
                                       size_t *bad_line);
/* Before run: the first queued path that is the regular file open on fd
 * (same device and inode; "-" when standard input is), or NULL. A caller
 * about to write its output on fd can refuse to clobber an input. The walk
 * itself leaves o.out_fd's file out of the directories it walks. */
ADEXP_API const char *adexp_batch_find_input(const adexp_batch *b, int fd);
/* Before run: the first queued directory whose walk would parse the regular
 * file open on fd if it were not the output (below it by its real path, no
 * hidden name on the way, its name matching o.include), or NULL. A file
 * that holds no data yet (the output just created) is not looked for: the
 * walk leaves it out and nothing is lost. */
ADEXP_API const char *adexp_batch_find_walked_input(const adexp_batch *b, int fd);
/* Before run: the number of paths queued. After run: the number of inputs
 * met (files, failed paths and skipped entries). */
ADEXP_API size_t adexp_batch_count(const adexp_batch *b);

/* Whether data, an input's first bytes (512 of them tell a tar archive),
 * is a compressed file or an archive that the batch unpacks (gzip, zstd,
 * xz, bzip2; tar, zip): 1, or 0 for plain text. */
ADEXP_API int adexp_batch_is_packed(const char *data, size_t len);

/* The cut of the batch's big-input splitter (piece_size), for callers
 * that cut an input into byte ranges themselves (a cluster's partitions):
 * the first message start at or after `at` in data[0..len) (a -TITLE, or
 * with envelope = 1, as o.parser.envelope AFTN gives, an AFTN envelope's
 * start), or len when there is none. Whether a start is one depends on
 * the byte before it: data may begin anywhere before `at`, not at it.
 * A cut is a guess: its -TITLE may lie in a text field. A parse from the
 * cut before it, run on past the cut, ends before the first message that
 * starts at or after it (real end); where that differs from the cut, the
 * range after it is parsed again from the real end. */
ADEXP_API size_t adexp_batch_next_cut(const char *data, size_t len, size_t at, int envelope);

/* Parse everything queued. Fills *stats (may be NULL). Returns 0 when every
 * input parsed, 1 when some failed or the output could not be written,
 * -1 when the threads could not be started or memory ran out while
 * walking. Call at most once. Reentrant: batches may run side by side. */
ADEXP_API int adexp_batch_run(adexp_batch *b, adexp_batch_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
