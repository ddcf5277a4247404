/* Batch driver: a fixed pool of long-lived workers over a shared queue.
 *
 * The queue is cut into chunks of consecutive inputs; a worker takes the
 * next chunk with one atomic increment, so there is no lock per file. In
 * ordered mode a finished chunk is written by the worker that finishes it
 * if it is the oldest unwritten one; otherwise its buffers are parked in a
 * slot of a window of 4 x jobs chunks, and the worker that writes the
 * oldest chunk writes the parked ones that follow. A worker may not start a
 * chunk beyond the window: a slow file holds back a bounded amount of output
 * (at most the window's chunks), not the rest of the run.
 *
 * The calling thread walks the directories while the workers run: entries
 * are published one by one, and a worker whose chunk is not complete yet
 * waits for the walker (or for its end). The walk is then not a serial
 * phase in front of the parallel one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "batch_internal.h"

#define FLUSH_BYTES BATCH_FLUSH_BYTES  /* write output in blocks of about 1 MiB */
/* A chunk that is not the oldest unwritten one holds at most about this
 * much output: then its worker waits for its turn, which bounds memory. */
#define PARK_BYTES ((size_t)4 << 20)
#define CHUNK 16                /* inputs per chunk, after the first ones */
#define MAX_JOBS 1024
#define INLINE_PATHS 16         /* at most this many paths are walked before the parse */

typedef struct slot {
    batch_result res;
    int done;                  /* parked, waiting for its turn */
} slot;

typedef struct batch_run {
    adexp_batch *b;
    size_t small, window;      /* chunks of one input, chunks in the window */
    atomic_int walk_done;      /* every input is published */
    pthread_cond_t in_cv;      /* more inputs published, or the walk ended */
    atomic_size_t next;        /* next chunk to take */
    atomic_size_t written;     /* chunks written, in order */
    atomic_size_t files_done;
    atomic_uint_least64_t live_text, live_packed, live_msgs;   /* batch_progress */
    atomic_int stop;           /* the output failed: take no more work */
    atomic_uint running;       /* workers still running */
    int out_errno;
    pthread_mutex_t mu;        /* slots, waits for the window, unordered writes */
    pthread_cond_t cv;
    pthread_mutex_t err_mu;    /* the error descriptor, shared with progress */
    int progress_shown;
    slot *slots;
    batch_split *split;        /* a big input's pieces to help with (mu) */
    atomic_int split_on;       /* split != NULL, read without the lock */
    unsigned split_users;      /* workers inside batch_split_help (mu) */
    unsigned idle;             /* workers with no chunk left to take (mu) */
} run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

adexp_batch_options adexp_batch_options_default(void)
{
    adexp_batch_options o;
    memset(&o, 0, sizeof o);
    o.format = ADEXP_BATCH_JSON;
    o.out_fd = 1;
    o.err_fd = 2;
    o.progress_fd = -1;
    o.parser = adexp_options_default();
    return o;
}

adexp_batch *adexp_batch_new(const adexp_batch_options *opts)
{
    adexp_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->o = opts ? *opts : adexp_batch_options_default();
    if (b->o.max_file_size == 0)
        b->o.max_file_size = SIZE_MAX;      /* no limit */
    if (b->o.jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        b->o.jobs = n > 0 ? (unsigned)n : 1;
    }
    if (b->o.jobs > MAX_JOBS)
        b->o.jobs = MAX_JOBS;
    b->seg = calloc(BATCH_MAX_SEGS, sizeof *b->seg);
    if (!b->seg) {
        free(b);
        return NULL;
    }
    b->t0 = now();
    b->output.fd = b->o.out_fd;
    b->output.fn = b->o.on_output;
    b->output.ctx = b->o.output_ctx;
    struct stat st;
    if (fstat(b->o.out_fd, &st) == 0 && S_ISREG(st.st_mode))
        b->out_is_file = 1, b->out_dev = st.st_dev, b->out_ino = st.st_ino;
    return b;
}

void adexp_batch_free(adexp_batch *b)
{
    if (!b)
        return;
    batch_inputs_free(b);
    free(b);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A failure of the database, said on the error descriptor. */
static void sqlite_failed(run *r, const char *why)
{
    batch_str line = {0};
    batch_str_put_name(&line, r->b->o.db_path);
    batch_str_printf(&line, ": error: SQLite: %s\n", why);
    pthread_mutex_lock(&r->err_mu);
    write_all(r->b->o.err_fd, line.data ? line.data : "", line.len);
    pthread_mutex_unlock(&r->err_mu);
    batch_str_free(&line);
}

/* --format sqlite: the block's lines into the database (the one writer);
 * the messages committed count as written. */
static int put_sqlite(run *r, const batch_result *res)
{
    uint64_t done;
    int rc = batch_sqlite_put(r->b->sqlite, res->out.data, res->out.len, res->live, &done);
    r->b->output.lines += done;
    if (rc == 0)
        return 0;
    sqlite_failed(r, batch_sqlite_error(r->b->sqlite));
    return EIO;
}

/* Open the database before the workers start; close it after them. */
static int open_sqlite(run *r)
{
    adexp_batch *b = r->b;
    if (b->o.format != ADEXP_BATCH_SQLITE)
        return 0;
    char err[300];
    if ((b->sqlite = batch_sqlite_open(&b->o, err, sizeof err)) != NULL)
        return 0;
    sqlite_failed(r, err);
    return EIO;
}

static void close_sqlite(run *r)
{
    adexp_batch *b = r->b;
    if (!b->sqlite)
        return;
    char err[300];
    uint64_t done;
    if (batch_sqlite_close(b->sqlite, !r->out_errno, &done, err, sizeof err) != 0) {
        sqlite_failed(r, err);
        r->out_errno = EIO;
    }
    b->output.lines += done;
    b->sqlite = NULL;
}

/* Write one block of output and diagnostics; the caller holds the turn. A
 * failed output stops the run: there is no point parsing into the void. */
static void emit(run *r, batch_result *res)
{
    adexp_buf *out = &res->out;
    batch_str *err = &res->err;
    if (err->len && r->b->o.err_fd < 0) {
        err->len = 0;
    } else if (err->len) {
        pthread_mutex_lock(&r->err_mu);
        if (r->progress_shown)  /* clear the progress line first */
            write_all(r->b->o.progress_fd, "\r\033[K", 4);
        write_all(r->b->o.err_fd, err->data, err->len);
        pthread_mutex_unlock(&r->err_mu);
        err->len = 0;
    }
    if (out->len && !atomic_load(&r->stop) && batch_gives_items(&r->b->o)) {
        int e = batch_items_deliver(r->b, res);
        r->b->output.lines += res->lines;
        if (e) {
            r->out_errno = e;
            atomic_store(&r->stop, 1);
        }
    } else if (out->len && !atomic_load(&r->stop)) {
        int e = r->b->sqlite ? put_sqlite(r, res)
                             : batch_output_write(&r->b->output, out->data, out->len,
                                                  batch_lines_known(r->b) ? res->lines
                                                                          : BATCH_LINES_UNKNOWN);
        if (e) {
            r->out_errno = e;
            atomic_store(&r->stop, 1);
        }
    }
    batch_result_clear(res);
}

static int help_locked(run *r, batch_worker *w);

/* Wait until chunk c is inside the window. The lock is taken only when the
 * window is full, which is when waiting is the point. */
static void wait_window(run *r, batch_worker *w, size_t c)
{
    if (c < atomic_load(&r->written) + r->window)
        return;
    pthread_mutex_lock(&r->mu);
    while (c >= atomic_load(&r->written) + r->window && !atomic_load(&r->stop))
        if (!help_locked(r, w))
            pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

/* Ordered mode, chunk c done. Called with r->mu held; returns with it held. */
static void finish_ordered(run *r, batch_worker *w, size_t c)
{
    if (c != atomic_load(&r->written)) {
        slot *s = &r->slots[c % r->window];
        batch_result t = s->res;    /* park: swap buffers, no copy */
        s->res = w->res;
        w->res = t;
        s->done = 1;
        return;
    }
    /* Our turn: write outside the lock. The slots of the chunks that follow
     * cannot be reused before `written` passes them, so reading them
     * unlocked is safe. */
    pthread_mutex_unlock(&r->mu);
    emit(r, &w->res);
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->written, c + 1);
    for (;;) {
        slot *s = &r->slots[(c + 1) % r->window];
        if (!s->done)
            break;
        pthread_mutex_unlock(&r->mu);
        emit(r, &s->res);
        pthread_mutex_lock(&r->mu);
        s->done = 0;
        atomic_store(&r->written, ++c + 1);
    }
    pthread_cond_broadcast(&r->cv);
}

/* Help with the published split, if any, outside the lock; returns with
 * r->mu held. 1 if a piece was parsed. */
static int help_locked(run *r, batch_worker *w)
{
    batch_split *s = r->split;
    if (!s)
        return 0;
    r->split_users++;
    pthread_mutex_unlock(&r->mu);
    int did = batch_split_help(s, w);
    pthread_mutex_lock(&r->mu);
    if (--r->split_users == 0)
        pthread_cond_broadcast(&r->cv);
    return did;
}

static int help_split(run *r, batch_worker *w)
{
    if (!atomic_load_explicit(&r->split_on, memory_order_relaxed))
        return 0;              /* the common case, with no lock per chunk */
    pthread_mutex_lock(&r->mu);
    int did = help_locked(r, w);
    pthread_mutex_unlock(&r->mu);
    return did;
}

void batch_split_publish(batch_worker *w, batch_split *s)
{
    run *r = w->run;
    pthread_mutex_lock(&r->mu);
    r->split = s;
    atomic_store(&r->split_on, s != NULL);
    pthread_cond_broadcast(&r->cv);
    while (!s && r->split_users)   /* unpublished: wait for the helpers */
        pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

int batch_stopped(const batch_worker *w)
{
    return atomic_load(&w->run->stop);
}

int batch_write(batch_worker *w, batch_result *res)
{
    run *r = w->run;
    if (r->b->o.unordered) {
        pthread_mutex_lock(&r->mu);
        emit(r, res);
        pthread_mutex_unlock(&r->mu);
    } else {
        emit(r, res);
    }
    return atomic_load(&r->stop);
}

int batch_write_patched(batch_worker *w, const char *data, size_t len,
                        const batch_marks *mk, uint64_t add)
{
    enum { MAX = 512 };        /* iovecs per writev, under IOV_MAX */
    run *r = w->run;
    struct iovec iov[MAX];
    char digits[MAX / 2][24];
    batch_patch_pos pos = {0, 0};
    if (r->b->o.unordered)
        pthread_mutex_lock(&r->mu);
    size_t n;
    batch_patch_pos from = pos;
    while (!atomic_load(&r->stop) &&
           (n = batch_patch_iov(data, len, mk, &pos, add, iov, digits, MAX)) > 0) {
        uint64_t lines = batch_line_each(r->b) ? batch_patch_lines(from, pos, len)
                                               : BATCH_LINES_UNKNOWN;
        from = pos;
        int e = batch_output_writev(&r->b->output, iov, (int)n, lines);
        if (e) {
            r->out_errno = e;
            atomic_store(&r->stop, 1);
        }
    }
    if (r->b->o.unordered)
        pthread_mutex_unlock(&r->mu);
    return atomic_load(&r->stop);
}

int batch_turn(batch_worker *w)
{
    run *r = w->run;
    if (!r->b->o.unordered && atomic_load(&r->written) != w->chunk) {
        pthread_mutex_lock(&r->mu);
        while (atomic_load(&r->written) != w->chunk && !atomic_load(&r->stop))
            if (!help_locked(r, w))
                pthread_cond_wait(&r->cv, &r->mu);
        pthread_mutex_unlock(&r->mu);
    }
    return batch_write(w, &w->res);
}

/* Write big outputs as they grow when it is safe: always when unordered
 * (under the lock), and when ordered if this chunk holds the turn; past
 * PARK_BYTES, wait for the turn. */
void batch_maybe_flush(batch_worker *w)
{
    run *r = w->run;
    size_t held = batch_held(&w->res);
    if (held < FLUSH_BYTES)
        return;
    if (r->b->o.unordered || atomic_load(&r->written) == w->chunk || held >= PARK_BYTES)
        batch_turn(w);
}

/* Inputs [*lo, *hi) of chunk c: the first `small` chunks hold one input
 * each, so that a few big files still spread over the workers; the rest
 * hold CHUNK inputs, so that per-chunk costs are spread over many files. */
static void chunk_bounds(const run *r, size_t c, size_t *lo, size_t *hi)
{
    if (c < r->small) {
        *lo = c;
        *hi = c + 1;
    } else {
        *lo = r->small + (c - r->small) * CHUNK;
        *hi = *lo + CHUNK;
    }
}

/* Wait until the walker has published `need` entries or finished; returns
 * how many are published. */
static size_t wait_input(run *r, size_t need)
{
    size_t n = atomic_load_explicit(&r->b->published, memory_order_acquire);
    if (n >= need || atomic_load(&r->walk_done))
        return atomic_load_explicit(&r->b->published, memory_order_acquire);
    pthread_mutex_lock(&r->mu);
    while ((n = atomic_load_explicit(&r->b->published, memory_order_acquire)) < need &&
           !atomic_load(&r->walk_done))
        pthread_cond_wait(&r->in_cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    return atomic_load_explicit(&r->b->published, memory_order_acquire);
}

/* The walker's hook: wake workers waiting for inputs. */
static void published(void *ctx)
{
    run *r = ctx;
    pthread_mutex_lock(&r->mu);
    pthread_cond_broadcast(&r->in_cv);
    pthread_mutex_unlock(&r->mu);
}

static void do_chunk(run *r, batch_worker *w, size_t c, size_t lo, size_t hi)
{
    adexp_batch *b = r->b;
    w->chunk = c;
    for (size_t i = lo; i < hi; i++) {
        batch_do_entry(w, batch_entry_at(b, i));
        batch_maybe_flush(w);
    }
    pthread_mutex_lock(&r->mu);
    if (b->o.unordered)
        emit(r, &w->res);
    else
        finish_ordered(r, w, c);
    pthread_mutex_unlock(&r->mu);
    atomic_fetch_add(&r->files_done, hi - lo);
}

typedef struct thread_ctx {
    run *r;
    batch_worker w;
    pthread_t tid;
    int started;
} thread_ctx;

/* No chunk left to take: help with splits that the workers still busy
 * may publish, until every worker is here. */
static void linger(run *r, batch_worker *w)
{
    pthread_mutex_lock(&r->mu);
    r->idle++;
    pthread_cond_broadcast(&r->cv);
    while (r->idle < atomic_load(&r->running) && !atomic_load(&r->stop))
        if (!help_locked(r, w))
            pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
}

static void *worker_main(void *arg)
{
    thread_ctx *t = arg;
    run *r = t->r;
    while (!atomic_load(&r->stop)) {
        while (help_split(r, &t->w))
            ;
        size_t c = atomic_fetch_add(&r->next, 1), lo, hi;
        chunk_bounds(r, c, &lo, &hi);
        size_t n = wait_input(r, hi);
        if (lo >= n) {          /* the walk is over and so is the queue */
            linger(r, &t->w);
            break;
        }
        if (!r->b->o.unordered)
            wait_window(r, &t->w, c);
        if (atomic_load(&r->stop))
            break;
        do_chunk(r, &t->w, c, lo, hi < n ? hi : n);
    }
    pthread_mutex_lock(&r->mu);
    atomic_fetch_sub(&r->running, 1);
    pthread_cond_broadcast(&r->cv);   /* for the lingering workers */
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static void plan(run *r, unsigned jobs)
{
    r->small = (size_t)jobs * 8;
    r->window = (size_t)jobs * 4 < 8 ? 8 : (size_t)jobs * 4;
}

void batch_progress(batch_worker *w, uint64_t text, uint64_t packed, uint64_t msgs)
{
    run *r = w->run;
    if (!r || w->b->o.progress_fd < 0)
        return;
    atomic_fetch_add_explicit(&r->live_text, text, memory_order_relaxed);
    atomic_fetch_add_explicit(&r->live_packed, packed, memory_order_relaxed);
    atomic_fetch_add_explicit(&r->live_msgs, msgs, memory_order_relaxed);
}

/* Files done of those found, the text read (and the compressed bytes
 * behind it), messages, rate: all move inside one big or compressed
 * input too (batch_progress). */
static void show_progress(run *r, double t0)
{
    size_t done = atomic_load(&r->files_done);
    size_t total = atomic_load(&r->b->published);
    double el = now() - t0, mb = (double)atomic_load(&r->live_text) / 1e6;
    double packed = (double)atomic_load(&r->live_packed) / 1e6;
    unsigned long long msgs = (unsigned long long)atomic_load(&r->live_msgs);
    double rate = el > 0 ? mb / el : 0;
    char line[200], gz[48] = "", eta[32] = "";
    if (packed > 0)
        snprintf(gz, sizeof gz, " (%.1f MB compressed)", packed);
    if (done > 0 && done < total)
        snprintf(eta, sizeof eta, "  ETA %.0fs", el * (double)(total - done) / (double)done);
    int n = snprintf(line, sizeof line,
                     "\r\033[Kadexp-parse: %zu/%zu files  %.1f MB read%s  %llu messages  "
                     "%.1f MB/s%s", done, total, mb, gz, msgs, rate, eta);
    if (n < 0 || (size_t)n >= sizeof line)
        n = (int)sizeof line - 1;
    pthread_mutex_lock(&r->err_mu);
    write_all(r->b->o.progress_fd, line, (size_t)n);
    r->progress_shown = 1;
    pthread_mutex_unlock(&r->err_mu);
}

/* The calling thread draws the progress line, at most 10 times a second. */
static void watch(run *r)
{
    double t0 = now();
    struct timespec tick = {0, 100 * 1000 * 1000};
    while (atomic_load(&r->running) > 0) {
        nanosleep(&tick, NULL);
        if (atomic_load(&r->running) > 0)
            show_progress(r, t0);
    }
    if (r->progress_shown)
        write_all(r->b->o.progress_fd, "\r\033[K", 4);
}

static unsigned start_workers(run *r, thread_ctx *t, unsigned jobs)
{
    unsigned started = 0;
    atomic_store(&r->running, jobs);
    for (unsigned i = 0; i < jobs; i++) {
        t[i].r = r;
        if (batch_worker_init(&t[i].w, r->b) != 0 ||
            (t[i].w.run = r, pthread_create(&t[i].tid, NULL, worker_main, &t[i])) != 0) {
            /* Fewer workers still finish the job; none cannot. */
            pthread_mutex_lock(&r->mu);
            atomic_fetch_sub(&r->running, jobs - i);
            pthread_cond_broadcast(&r->cv);
            pthread_mutex_unlock(&r->mu);
            break;
        }
        t[i].started = 1;
        started++;
    }
    return started;
}

static void collect(run *r, thread_ctx *t, unsigned jobs, adexp_batch_stats *st)
{
    memset(st, 0, sizeof *st);
    for (unsigned i = 0; i < jobs; i++) {
        batch_worker *w = &t[i].w;
        if (t[i].started)
            pthread_join(t[i].tid, NULL);
        st->files_ok += w->files_ok;
        st->files_failed += w->files_failed;
        st->skipped += w->skipped;
        st->messages += w->messages;
        st->messages_failed += w->messages_failed;
        st->messages_warned += w->messages_warned;
        st->messages_left_out += w->messages_left_out;
        st->inputs_failed += w->inputs_failed;
        st->bytes += w->bytes;
        if (w->parser)
            batch_worker_fini(w);
    }
    st->files = st->files_ok + st->files_failed;
    st->filtered = r->b->filtered;
    st->output_error = r->out_errno;
    st->messages_written = r->b->output.lines;
    st->bytes_written = r->b->output.bytes;
    st->inputs_not_read = r->b->n - atomic_load(&r->files_done);
}

static int run_init(run *r, adexp_batch *b, unsigned jobs)
{
    memset(r, 0, sizeof *r);
    r->b = b;
    plan(r, jobs);
    r->slots = calloc(r->window, sizeof *r->slots);
    if (!r->slots)
        return -1;
    for (size_t i = 0; i < r->window; i++)
        adexp_buf_init(&r->slots[i].res.out, NULL);
    pthread_mutex_init(&r->mu, NULL);
    pthread_mutex_init(&r->err_mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    pthread_cond_init(&r->in_cv, NULL);
    return 0;
}

static void run_fini(run *r)
{
    for (size_t i = 0; i < r->window; i++) {
        adexp_buf_free(&r->slots[i].res.out);
        batch_str_free(&r->slots[i].res.err);
        batch_items_free(&r->slots[i].res);
    }
    free(r->slots);
    pthread_mutex_destroy(&r->mu);
    pthread_mutex_destroy(&r->err_mu);
    pthread_cond_destroy(&r->cv);
    pthread_cond_destroy(&r->in_cv);
}

/* Walk the roots in this thread while the workers parse, then tell them
 * the queue is complete. */
static void walk_all(run *r)
{
    adexp_batch *b = r->b;
    b->on_publish = published;
    b->publish_ctx = r;
    batch_walk_roots(b);
    b->on_publish = NULL;
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->walk_done, 1);
    pthread_cond_broadcast(&r->in_cv);
    pthread_mutex_unlock(&r->mu);
}

/* A root's path when it names a file or a directory to walk; NULL for a
 * buffer, a descriptor or "-" (standard input), which are queued as they
 * are (batch_walk_roots). */
static const char *walked_path(const batch_root *rt)
{
    return rt->data || rt->fd >= 0 || strcmp(rt->path, "-") == 0 ? NULL : rt->path;
}

/* Whether the one root is a plain regular file that no worker but the
 * first could help with: too small to be cut into pieces, and not packed
 * (a small .gz may hold a text big enough to be cut). Its first bytes are
 * read to tell; the worker opens it again. */
static int one_uncut_file(const adexp_batch *b)
{
    const char *path = b->nroots == 1 ? walked_path(&b->roots[0]) : NULL;
    int fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) : -1;
    if (fd < 0)
        return 0;
    struct stat st;
    char head[512];            /* a tar's mark lies at 257 */
    ssize_t n;
    int uncut = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                !batch_split_pays(&b->o, (size_t)st.st_size) &&
                (n = pread(fd, head, sizeof head, 0)) >= 0 &&
                batch_packed_kind(head, (size_t)n) == BATCH_PLAIN;
    close(fd);
    return uncut;
}

/* Whether the calling thread walks the roots and then parses the inputs
 * itself, as the only worker: when no progress line is drawn and no second
 * worker could help. A worker thread would only add its start, the
 * hand-overs and the join (bench/RESULTS.md, "One worker on the calling
 * thread"). With jobs 1 that is so unless the walk is long enough to be
 * worth overlapping with the parse (a directory, or many paths); with more
 * jobs, for one small plain file. */
static int runs_inline(const adexp_batch *b)
{
    if (b->o.progress_fd >= 0)
        return 0;
    if (b->o.jobs > 1)
        return one_uncut_file(b);
    size_t paths = 0;
    for (size_t i = 0; i < b->nroots; i++) {
        struct stat st;
        const char *path = walked_path(&b->roots[i]);
        if (path && (++paths > INLINE_PATHS || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))))
            return 0;
    }
    return 1;
}

static unsigned run_inline(run *r, thread_ctx *t)
{
    atomic_store(&r->running, 1);
    t->r = r;
    if (batch_worker_init(&t->w, r->b) != 0) {
        atomic_store(&r->running, 0);
        return 0;
    }
    t->w.run = r;
    walk_all(r);
    worker_main(t);
    return 1;
}

int adexp_batch_run(adexp_batch *b, adexp_batch_stats *stats)
{
    adexp_batch_stats local;
    adexp_batch_stats *st = stats ? stats : &local;
    memset(st, 0, sizeof *st);
    if (b->ran || b->nomem)
        return -1;
    b->ran = 1;
    run r;
    unsigned jobs = b->o.jobs;
    thread_ctx *t = calloc(jobs, sizeof *t);
    if (!t || run_init(&r, b, jobs) != 0) {
        free(t);
        return -1;
    }
    if ((r.out_errno = batch_emit_header(b)) != 0 || (r.out_errno = open_sqlite(&r)) != 0)
        atomic_store(&r.stop, 1);
    unsigned started;
    if (runs_inline(b))
        started = run_inline(&r, t);
    else if ((started = start_workers(&r, t, jobs)) > 0) {
        walk_all(&r);
        if (b->o.progress_fd >= 0)
            watch(&r);
    }
    for (unsigned i = 0; i < jobs; i++)
        if (t[i].started)
            pthread_join(t[i].tid, NULL), t[i].started = 0;
    close_sqlite(&r);
    collect(&r, t, jobs, st);
    run_fini(&r);
    free(t);
    st->elapsed = now() - b->t0;
    if (started == 0 || b->nomem)
        return -1;
    return st->files_failed || st->output_error ? 1 : 0;
}
