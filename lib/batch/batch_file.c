/* Batch driver: what a worker does with one input. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch_internal.h"
#include "json_out.h"
#include "lexer.h"

/* A file is "binary" when its first 4 KiB hold a NUL byte and it holds no
 * message start (lexer_next_title: no ADEXP message), or when it holds no '-' at all (every ADEXP
 * field starts with one). Such files are failed with one line instead of a
 * parse error per message. A NUL byte in a file with messages is the error
 * of the message that holds it (batch_nul.c). The probe's size is
 * BATCH_BINARY_PROBE (batch_internal.h), which streams share. */

/* Files larger than this are mapped, not read: no copy, and the mapping is
 * page cache, not the process's own memory. Smaller ones are read into the
 * worker's reused buffer, which costs less than a mapping. */
#define MAP_BYTES ((size_t)1 << 20)

int batch_str_printf(batch_str *s, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(s->data ? s->data + s->len : NULL,
                          s->cap - s->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if ((size_t)n < s->cap - s->len) {
            s->len += (size_t)n;
            return 0;
        }
        size_t cap = s->cap ? s->cap : 4096;
        while (cap - s->len <= (size_t)n)
            cap *= 2;
        char *d = realloc(s->data, cap);
        if (!d)
            return -1;
        s->data = d;
        s->cap = cap;
    }
}

void batch_str_free(batch_str *s)
{
    free(s->data);
    s->data = NULL;
    s->len = s->cap = 0;
}

/* The formats that read the typed view's members (json, summary, adexp,
 * csv and tsv read the fields, and the title for --title; so does the
 * view's writer, which takes what it writes from the fields). */
static int reads_view(const adexp_batch_options *o)
{
    return o->format == ADEXP_BATCH_SQLITE || batch_gives_items(o);
}

int batch_worker_init(batch_worker *w, const adexp_batch *b)
{
    memset(w, 0, sizeof *w);
    w->b = b;
    adexp_options po = b->o.parser;
    po.view_title_only = !reads_view(&b->o);
    w->parser = adexp_parser_new(&po, NULL);
    if (!w->parser)
        return -1;
    adexp_arena_init(&w->arena, NULL);
    adexp_buf_init(&w->res.out, NULL);
    if (b->o.format != ADEXP_BATCH_SUMMARY)   /* a block's room at once, not by copies */
        (void)adexp_buf_room(&w->res.out, 2 * BATCH_FLUSH_BYTES);
    adexp_buf_init(&w->scratch, NULL);
    adexp_buf_init(&w->source.name, NULL);
    adexp_buf_init(&w->source.quoted, NULL);
    w->findings.dictionary = b->o.parser.dictionary;
    return 0;
}

void batch_worker_fini(batch_worker *w)
{
    adexp_parser_free(w->parser);
    adexp_arena_free(&w->arena);
    adexp_buf_free(&w->res.out);
    adexp_buf_free(&w->scratch);
    batch_source_free(&w->source);
    batch_str_free(&w->res.err);
    batch_items_free(&w->res);
    batch_pages_free(w->in, w->in_cap);
    batch_pages_free(w->packed, w->packed_cap);
}

void batch_fail(batch_worker *w, const char *path, const char *why)
{
    batch_put_head(w, path, 0, 0, BATCH_ERROR);
    batch_str_printf(&w->res.err, "%s\n", why);
    w->files_failed++;
    w->inputs_failed++;
    if (batch_gives_items(&w->b->o))
        batch_item_input(w, ADEXP_BATCH_ITEM_FAILED, path, why);
}

/* Make room for need bytes plus a spare one, keeping what is read; the
 * room doubles from IN_FIRST, but never past max bytes plus the spare one. */
#define IN_FIRST ((size_t)1 << 20)
int batch_grow_in(batch_worker *w, size_t need, size_t max)
{
    if (need < w->in_cap)
        return 0;
    size_t cap = w->in_cap ? w->in_cap : IN_FIRST;
    while (cap <= need)
        cap *= 2;
    if (max >= need && max < SIZE_MAX && cap > max + 1)
        cap = max + 1 > IN_FIRST ? max + 1 : IN_FIRST;
    char *p = batch_pages_grow(w->in, w->in_cap, cap);
    if (!p)
        return -1;
    w->in = p;
    w->in_cap = cap;
    return 0;
}

/* Read fd into w->in up to limit + 1 bytes (one more than allowed, to tell
 * "too large"). A regular file stops at its fstat size: that saves the
 * read() that would only return 0. Returns 0 or an errno. */
static int read_fd(batch_worker *w, int fd, size_t size_hint, size_t limit,
                   size_t *len)
{
    size_t stop = limit < SIZE_MAX ? limit + 1 : limit;
    if (size_hint && size_hint < stop)
        stop = size_hint;
    size_t n = 0;
    while (n < stop) {
        size_t want = size_hint ? stop : n + (1 << 16);
        if (batch_grow_in(w, want < stop ? want : stop, stop) != 0)
            return ENOMEM;
        size_t room = w->in_cap - 1 - n;
        if (room > stop - n)
            room = stop - n;
        ssize_t r = read(fd, w->in + n, room);
        if (r == 0)
            break;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return errno;
        n += (size_t)r;
    }
    *len = n;
    return 0;
}

/* The bytes of the regular file open on fd (st its stat), from its start:
 * mapped (*map set) or read into w->in. Returns 0 with *len set, or -1
 * after reporting the failure. */
static int load_fd(batch_worker *w, const char *path, int fd, const struct stat *st,
                   size_t *len, batch_map **map)
{
    size_t limit = w->b->o.max_file_size, size = (size_t)st->st_size;
    if ((uintmax_t)st->st_size > limit) {
        char why[96];
        snprintf(why, sizeof why, "file too large (%jd bytes, --max-file-size %zu)",
                 (intmax_t)st->st_size, limit);
        return batch_fail(w, path, why), -1;
    }
    int err = 0;
    if (size > MAP_BYTES && (*map = batch_map_file(fd, size)) != NULL)
        *len = size;
    else
        err = read_fd(w, fd, size, limit, len);
    if (err)
        return batch_fail(w, path, strerror(err)), -1;
    return 0;
}

/* Open and read (or map: *map set) a regular file. O_NONBLOCK so that a
 * path that turned into a FIFO since the walk cannot block open(); S_ISREG
 * is checked before any read. Returns 0 with *len set, or -1 after
 * reporting the failure. */
static int load_file(batch_worker *w, const char *path, size_t *len,
                     batch_map **map)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return batch_fail(w, path, strerror(errno)), -1;
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0)
        batch_fail(w, path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        batch_fail(w, path, "not a regular file");
    else
        rc = load_fd(w, path, fd, &st, len, map);
    close(fd);
    return rc;
}

/* The checks that make one clear line instead of a flood of parse errors.
 * Returns -1 (reported), else 0. */
int batch_check_content(batch_worker *w, const char *path, const char *in, size_t len)
{
    char why[96];
    if (len > w->b->o.max_file_size) {
        snprintf(why, sizeof why, "file too large (more than --max-file-size %zu bytes)",
                 w->b->o.max_file_size);
        return batch_fail(w, path, why), -1;
    }
    if (len == 0)
        return batch_fail(w, path, "empty file"), -1;
    size_t probe = len < BATCH_BINARY_PROBE ? len : BATCH_BINARY_PROBE;
    const char *nul = batch_find_nul(in, probe);
    if (nul && lexer_next_title(in, len, 0) == len) {
        snprintf(why, sizeof why, "binary file (NUL byte at offset %zu)",
                 (size_t)(nul - in));
        return batch_fail(w, path, why), -1;
    }
    if (!memchr(in, '-', len))
        return batch_fail(w, path, "not ADEXP: no '-' in the file"), -1;
    return 0;
}

void batch_report_errors(batch_worker *w, const char *path, const adexp_msg *m,
                         size_t *index_at)
{
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        batch_put_head(w, path, (unsigned)e->line, (unsigned)e->column, BATCH_ERROR);
        batch_str_printf(&w->res.err, "%s: %s\n", adexp_status_name(e->code), e->message);
    }
    if (m->nerrors_total > m->nerrors) {
        batch_put_head(w, path, 0, 0, BATCH_NOTE);
        batch_str_printf(&w->res.err, "%zu more errors in message ",
                         m->nerrors_total - m->nerrors);
        if (index_at)
            *index_at = w->res.err.len;
        batch_str_printf(&w->res.err, "%zu\n", m->index);
    }
}

/* Parse every message of in[0..len). The arena is reset after each
 * message: its chunks are kept, so steady state allocates nothing. Each
 * message is looked at for a NUL byte just after its parse, while its bytes
 * are in cache, rather than the whole input in a pass of its own first. */
void batch_parse_all(batch_worker *w, const char *path, const char *in, size_t len)
{
    uint64_t count = 0, bad = 0, shown = 0;   /* shown: messages told to progress */
    size_t shown_at = 0;
    adexp_msg m;
    lines_cursor lines = lines_cursor_of(in, len);
    adexp_parser_reset(w->parser, in, len);
    while (adexp_parser_next(w->parser, &w->arena, &m) != ADEXP_END) {
        if (w->map && batch_map_lost(w->map, in, &m))
            break;             /* batch_do_entry reports it */
        count++;
        batch_mark_nul(&w->arena, &lines, in, &m);
        if (m.nerrors_total) {
            bad++;
            batch_report_errors(w, path, &m, NULL);
        }
        adexp_status st = batch_emit(w, path, &m, NULL);
        if (st == ADEXP_E_NOMEM) {     /* a refusal is said by batch_emit */
            batch_put_head(w, path, 0, 0, BATCH_ERROR);
            batch_str_printf(&w->res.err, "out of memory writing the output of message %zu\n",
                             m.index);
        }
        if (st != ADEXP_OK)
            bad += m.nerrors_total ? 0 : 1;
        adexp_arena_reset(&w->arena);
        batch_maybe_flush(w);
        if (m.offset - shown_at >= PROGRESS_BYTES) {
            batch_progress(w, m.offset - shown_at, 0, count - shown);
            shown_at = m.offset, shown = count;
        }
    }
    batch_progress(w, len - shown_at, 0, count - shown);
    batch_input_counted(w, path, len, count, bad);
}

void batch_input_counted(batch_worker *w, const char *path, size_t len, uint64_t count,
                         uint64_t bad)
{
    w->messages += count;
    w->messages_failed += bad;
    w->bytes += len;
    if (count == 0)
        batch_fail(w, path, "no ADEXP message");
    else if (bad)
        w->files_failed++;
    else
        w->files_ok++;
}

/* A FIFO or a device named as a path: opened O_NONBLOCK, so that open()
 * returns at once even with no writer yet, then read as a stream (poll
 * waits for the writer and its bytes). */
static void parse_named_stream(batch_worker *w, const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        batch_fail(w, path, strerror(errno));
        return;
    }
    batch_fd_reader rd;
    batch_fd_reader_init(&rd, fd, 1);
    batch_stream_unpack(w, path, &rd.r);
    close(fd);
}

/* The bytes of a whole input in memory: parsed in pieces by the pool when
 * that pays, else by this worker. */
void batch_parse_input(batch_worker *w, const char *path, const char *in, size_t len)
{
    if (batch_check_content(w, path, in, len) < 0)
        return;
    if (batch_split_wanted(w, len)) {
        if (batch_turn(w) == 0)
            batch_split_parse(w, path, in, len);
    } else {
        batch_parse_all(w, path, in, len);
    }
}

static void swap_packed(batch_worker *w)
{
    char *p = w->in;
    size_t cap = w->in_cap;
    w->in = w->packed, w->in_cap = w->packed_cap;
    w->packed = p, w->packed_cap = cap;
}

/* A compressed file or an archive is unpacked (batch_archive.c), its
 * members parsed as streams in w->in: packed bytes read into w->in are
 * moved aside meanwhile. Plain bytes are parsed. */
static void parse_whole(batch_worker *w, const char *path, const char *in, size_t len)
{
    if (batch_packed_kind(in, len) == BATCH_PLAIN) {
        batch_parse_input(w, path, in, len);
    } else if (in != w->in) {
        batch_unpack(w, path, in, len);
    } else {
        swap_packed(w);
        batch_unpack(w, path, w->packed, len);
        swap_packed(w);
    }
}

/* A mapped file; if it was cut short meanwhile (batch_map.c), it is
 * failed, whatever its messages read before were. */
static void parse_mapped(batch_worker *w, const char *path, batch_map *map, size_t len)
{
    uint64_t ok = w->files_ok, failed = w->files_failed;
    w->map = map;
    parse_whole(w, path, batch_map_data(map), len);
    w->map = NULL;
    if (batch_map_report(w, path, map) && w->files_failed == failed) {
        w->files_ok = ok;
        w->files_failed++;
    }
    batch_map_free(map);
}

/* A loaded input: mapped (map) or in w->in. */
static void parse_loaded(batch_worker *w, const char *path, batch_map *map, size_t len)
{
    if (map)
        parse_mapped(w, path, map, len);
    else
        parse_whole(w, path, w->in, len);
}

/* A descriptor handed in (standard input, adexp_batch_add_fd): a regular
 * file read from its start is read as that file named (load_fd), so that a
 * big one is mapped and cut across the pool (`adexp-parse -j 2 - < big`);
 * the descriptor is then left at the file's end, where reading it would
 * leave it. A pipe, a FIFO, a device or a file read from elsewhere is read
 * as a stream. */
static void parse_fd(batch_worker *w, const char *path, int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0) {
        batch_map *map = NULL;
        size_t len = 0;
        if (load_fd(w, path, fd, &st, &len, &map) == 0)
            parse_loaded(w, path, map, len);
        lseek(fd, st.st_size, SEEK_SET);
        return;
    }
    batch_fd_reader rd;
    batch_fd_reader_init(&rd, fd, 0);
    batch_stream_unpack(w, path, &rd.r);
}

void batch_do_entry(batch_worker *w, const batch_entry *e)
{
    const char *path = e->path;
    batch_map *map = NULL;
    size_t len = 0;
    switch (e->kind) {
    case BATCH_BUFFER:
        parse_whole(w, path, e->data, e->len);
        return;
    case BATCH_SKIP:
        batch_note(w, path, e->note);
        w->skipped++;
        return;
    case BATCH_FAIL:
        batch_fail(w, path, e->note);
        return;
    case BATCH_STDIN:
        parse_fd(w, path, STDIN_FILENO);
        return;
    case BATCH_STREAM:
        parse_named_stream(w, path);
        return;
    case BATCH_FD:
        parse_fd(w, path, (int)e->len);
        return;
    default:
        if (load_file(w, path, &len, &map) == 0)
            parse_loaded(w, path, map, len);
        return;
    }
}

void batch_note(batch_worker *w, const char *path, const char *note)
{
    batch_put_head(w, path, 0, 0, BATCH_NOTE);
    batch_str_printf(&w->res.err, "%s\n", note);
    if (batch_gives_items(&w->b->o))
        batch_item_input(w, ADEXP_BATCH_ITEM_SKIPPED, path, note);
}
