/* adexp._parse_files: every input adexp-parse reads (files, directories,
 * descriptors, buffers; compressed files and archives among them), read
 * and parsed by the batch driver on its own threads without the GIL, the
 * messages handed out in the CLI's order with the CLI's sources and
 * failures.
 *
 * adexp_batch_run runs on a thread of its own. Its on_items callback (the
 * batch's writer, in input order, once per chunk or piece) queues the
 * items as a block with the arena that holds their messages, taken over
 * from the batch; the consumer (__next__, with the GIL) takes whole blocks
 * and wraps their items into Messages that keep the block's arena alive.
 * The callback waits while the blocks queued hold WINDOW bytes or more:
 * the batch then waits too, so memory stays bounded whatever the input.
 * An iterator still alive when the interpreter exits has its batch
 * stopped first (pa_files_stop_all, from atexit): no batch thread may run
 * on while the process tears down. */
#include "pyadexp.h"
#include "adexp_batch.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_JOBS 256
/* A big input's pieces, in input bytes: a piece's messages kept as items
 * take about 7 times its bytes (the fields' structs), and a piece that
 * holds more than the batch lets one hold is parsed on by the owner alone,
 * while the other workers wait: at 1 MiB (the CLI's) most did. */
#define ITEM_PIECE ((size_t)256 << 10)
#define KEEP_CHUNK ((size_t)256 << 10)    /* the chunks of the arenas left to the batch */
#define WINDOW_MIN ((size_t)16 << 20)     /* blocks queued at most, in bytes */
#define WINDOW_PER_JOB ((size_t)4 << 20)

PyObject *pa_FileError;

/* A run of the batch's items and the arena they point into, taken over
 * from the batch as it is handed out: no message is copied again here. */
typedef struct block {
    struct block *next;
    adexp_arena arena;
    adexp_batch_item *v;
    size_t n;
    size_t bytes;              /* about what the block holds */
} block;

typedef struct pa_files {
    PyObject_HEAD
    adexp_batch *batch;
    adexp_batch_stats stats;
    int rc;                    /* adexp_batch_run's */
    int skip_errors;
    char *include;
    PyObject *inputs;          /* what the batch reads from: kept alive */
    PyObject *dictionary;      /* the _Dictionary the parsers read with, or NULL */
    pthread_t thread;
    int started, joined;
    pthread_mutex_t mu;
    pthread_cond_t items_cv, space_cv;
    block *head, *tail;        /* blocks not taken yet, oldest first */
    size_t queued, window;     /* bytes in the blocks not consumed */
    int done, stop, nomem;
    struct pa_files *prev_live, *next_live;   /* the live ones (live_mu) */
    block *cur;                /* the consumer's block */
    size_t pos;
    PyObject *owner;           /* the _Arena of cur */
    const char *src_ptr;       /* the last source made into a str */
    PyObject *src_str;
} pa_files;

static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
static pa_files *live;         /* iterators whose batch was started */

static void live_add(pa_files *f)
{
    pthread_mutex_lock(&live_mu);
    f->next_live = live;
    if (live)
        live->prev_live = f;
    live = f;
    pthread_mutex_unlock(&live_mu);
}

static void live_remove(pa_files *f)
{
    pthread_mutex_lock(&live_mu);
    if (f->prev_live)
        f->prev_live->next_live = f->next_live;
    else if (live == f)
        live = f->next_live;
    if (f->next_live)
        f->next_live->prev_live = f->prev_live;
    f->prev_live = f->next_live = NULL;
    pthread_mutex_unlock(&live_mu);
}

/* The items, copied, and *keep, taken over; NULL when out of memory. */
static block *block_new(const adexp_batch_item *v, size_t n, adexp_arena *keep)
{
    block *b = calloc(1, sizeof *b);
    if (b && !(b->v = malloc(n * sizeof *v))) {
        free(b);
        b = NULL;
    }
    if (!b)
        return NULL;
    memcpy(b->v, v, n * sizeof *v);
    b->n = n;
    b->bytes = n * sizeof *v;
    for (size_t i = 0; i < n; i++)
        if (v[i].msg)
            b->bytes += sizeof(adexp_msg) + v[i].msg->length +
                        v[i].msg->nfields * sizeof(adexp_field);
    b->arena = *keep;
    pa_pool_arena_init(keep, KEEP_CHUNK);
    return b;
}

static void block_free(block *b)
{
    adexp_arena_free(&b->arena);
    free(b->v);
    free(b);
}

/* The batch's writer, in input order: no GIL here. */
static int on_items(void *ctx, const adexp_batch_item *v, size_t n, adexp_arena *keep)
{
    pa_files *f = ctx;
    pthread_mutex_lock(&f->mu);
    while (!f->stop && f->queued >= f->window)
        pthread_cond_wait(&f->space_cv, &f->mu);
    int stop = f->stop;
    block *b = stop || n == 0 ? NULL : block_new(v, n, keep);
    if (!stop && n && !b)
        stop = f->nomem = 1;
    if (b) {
        if (f->tail)
            f->tail->next = b;
        else
            f->head = b;
        f->tail = b;
        f->queued += b->bytes;
        pthread_cond_signal(&f->items_cv);
    }
    pthread_mutex_unlock(&f->mu);
    return stop;
}

static void *run_batch(void *arg)
{
    pa_files *f = arg;
    int rc = adexp_batch_run(f->batch, &f->stats);
    pthread_mutex_lock(&f->mu);
    f->rc = rc;
    f->done = 1;
    pthread_cond_broadcast(&f->items_cv);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

int pa_parse_jobs(PyObject *v, unsigned *jobs)
{
    if (v == Py_None) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        *jobs = n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned)n;
        return 0;
    }
    if (!PyLong_Check(v) || PyBool_Check(v)) {
        PyErr_Format(PyExc_TypeError, "jobs must be an int or None, not %.100s",
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    long n = PyLong_AsLong(v);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 1 || n > MAX_JOBS) {
        PyErr_Format(PyExc_ValueError, "jobs must be between 1 and %d", MAX_JOBS);
        return -1;
    }
    *jobs = (unsigned)n;
    return 0;
}

int pa_parse_errors_arg(PyObject *v, int *skip)
{
    if (!v || (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "raise") == 0))
        return *skip = 0, 0;
    if (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "skip") == 0)
        return *skip = 1, 0;
    PyErr_SetString(PyExc_ValueError, "errors must be 'raise' or 'skip'");
    return -1;
}

/* One input: ("path", str|bytes), ("fd", name, int) or ("buffer", name,
 * bytes), as adexp.parse_files makes them. */
int pa_batch_add_input(adexp_batch *b, PyObject *in)
{
    const char *kind;
    PyObject *name, *arg = NULL, *fs = NULL;
    if (!PyTuple_Check(in) || !PyArg_ParseTuple(in, "sO|O:input", &kind, &name, &arg))
        return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_TypeError, "bad input"), -1);
    if (!PyUnicode_FSConverter(name, &fs))
        return -1;
    const char *path = PyBytes_AS_STRING(fs);
    int rc = -1;
    if (strcmp(kind, "path") == 0 && !arg) {
        rc = adexp_batch_add_path(b, path);
    } else if (strcmp(kind, "fd") == 0 && arg && PyLong_Check(arg)) {
        long fd = PyLong_AsLong(arg);
        rc = fd < 0 || fd > INT32_MAX ? (PyErr_SetString(PyExc_ValueError, "bad fd"), -2)
                                      : adexp_batch_add_fd(b, path, (int)fd);
    } else if (strcmp(kind, "buffer") == 0 && arg && PyBytes_Check(arg)) {
        rc = adexp_batch_add_buffer(b, path, PyBytes_AS_STRING(arg),
                                    (size_t)PyBytes_GET_SIZE(arg));
    } else {
        PyErr_Format(PyExc_TypeError, "bad input kind %s", kind);
        rc = -2;
    }
    Py_DECREF(fs);
    if (rc == -1)
        PyErr_NoMemory();
    return rc < 0 ? -1 : 0;
}

PyObject *pa_pop(PyObject *kw, const char *key)
{
    PyObject *v = PyDict_GetItemString(kw, key);
    if (v) {
        Py_INCREF(v);
        PyDict_DelItemString(kw, key);
    }
    return v;
}

static int files_start(pa_files *f, PyObject *inputs, unsigned jobs, PyObject *include,
                       const adexp_options *opts)
{
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.parser = *opts;
    o.err_fd = -1;             /* the failures come as items */
    o.out_fd = -1;
    o.on_items = on_items;
    o.piece_size = ITEM_PIECE;
    o.item_ctx = f;
    if (include && include != Py_None) {
        PyObject *fs = NULL;
        if (!PyUnicode_FSConverter(include, &fs))
            return -1;
        f->include = strdup(PyBytes_AS_STRING(fs));
        Py_DECREF(fs);
        if (!f->include)
            return PyErr_NoMemory(), -1;
        o.include = f->include;
    }
    f->window = WINDOW_MIN > jobs * WINDOW_PER_JOB ? WINDOW_MIN : jobs * WINDOW_PER_JOB;
    if (!(f->batch = adexp_batch_new(&o)))
        return PyErr_NoMemory(), -1;
    Py_ssize_t n = PyList_GET_SIZE(inputs);
    for (Py_ssize_t i = 0; i < n; i++)
        if (pa_batch_add_input(f->batch, PyList_GET_ITEM(inputs, i)) != 0)
            return -1;
    Py_INCREF(inputs);
    f->inputs = inputs;
    if (pthread_create(&f->thread, NULL, run_batch, f) != 0) {
        PyErr_SetString(PyExc_OSError, "parse_files(): cannot start a thread");
        return -1;
    }
    f->started = 1;
    live_add(f);
    return 0;
}

PyObject *pa_parse_files(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    PyObject *kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    if (!kw)
        return NULL;
    PyObject *inputs, *jobs_arg = Py_None;
    PyObject *errors = pa_pop(kw, "errors"), *include = pa_pop(kw, "include");
    PyObject *dictionary = PyDict_GetItemString(kw, "dictionary");
    Py_XINCREF(dictionary);    /* pa_options_take takes it out of kw */
    pa_files *f = NULL;
    adexp_options opts;
    unsigned jobs;
    int skip;
    if (!PyArg_ParseTuple(args, "O!|O:_parse_files", &PyList_Type, &inputs, &jobs_arg) ||
        pa_options_take(kw, &opts) || pa_no_more_kwargs(kw, "parse_files") ||
        pa_parse_jobs(jobs_arg, &jobs) || pa_parse_errors_arg(errors, &skip))
        goto fail;
    if (!(f = PyObject_New(pa_files, &pa_FilesType)))
        goto fail;
    memset((char *)f + sizeof(PyObject), 0, sizeof *f - sizeof(PyObject));
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->items_cv, NULL);
    pthread_cond_init(&f->space_cv, NULL);
    f->skip_errors = skip;
    if (dictionary && dictionary != Py_None) {   /* it outlives the batch's parsers */
        Py_INCREF(dictionary);
        f->dictionary = dictionary;
    }
    if (files_start(f, inputs, jobs, include, &opts) != 0)
        goto fail;
    Py_DECREF(kw);
    Py_XDECREF(errors);
    Py_XDECREF(include);
    Py_XDECREF(dictionary);
    return (PyObject *)f;
fail:
    Py_XDECREF(f);
    Py_DECREF(kw);
    Py_XDECREF(errors);
    Py_XDECREF(include);
    Py_XDECREF(dictionary);
    return NULL;
}

/* Stop the batch (if it still runs) and wait for its thread; no GIL. */
static void stop_and_join(pa_files *f)
{
    pthread_mutex_lock(&f->mu);
    if (!f->done)
        f->stop = 1;
    pthread_cond_broadcast(&f->space_cv);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->thread, NULL);
}

static void files_join(pa_files *f)
{
    if (!f->started || f->joined)
        return;
    f->joined = 1;             /* before the GIL goes: one join, whoever asks */
    live_remove(f);
    Py_BEGIN_ALLOW_THREADS
    stop_and_join(f);
    Py_END_ALLOW_THREADS
}

PyObject *pa_files_stop_all(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&live_mu);
        pa_files *f = live;
        pthread_mutex_unlock(&live_mu);
        if (!f)
            break;
        files_join(f);         /* takes f off the list */
    }
    Py_RETURN_NONE;
}

static void files_dealloc(PyObject *self)
{
    pa_files *f = (pa_files *)self;
    files_join(f);
    Py_CLEAR(f->owner);
    if (f->cur)
        block_free(f->cur);
    for (block *b = f->head, *next; b; b = next) {
        next = b->next;
        block_free(b);
    }
    adexp_batch_free(f->batch);
    free(f->include);
    Py_XDECREF(f->inputs);
    Py_XDECREF(f->dictionary);
    Py_XDECREF(f->src_str);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->items_cv);
    pthread_cond_destroy(&f->space_cv);
    pthread_mutex_lock(&live_mu);
    int last = live == NULL;
    pthread_mutex_unlock(&live_mu);
    if (last)                  /* what the Messages still alive free is kept again */
        pa_pool_drain();
    Py_TYPE(self)->tp_free(self);
}

/* The errno whose text why is (the batch reports strerror's), or 0. */
int pa_errno_of(const char *why)
{
    for (int e = 1; e < 134; e++)
        if (strcmp(strerror(e), why) == 0)
            return e;
    return 0;
}

PyObject *pa_file_error(int err, const char *why, PyObject *source)
{
    if (err == ENOMEM)
        return PyErr_NoMemory();
    PyObject *e = PyObject_CallFunction(pa_FileError, "isO", err,
                                        err ? strerror(err) : why, source);
    if (e) {
        PyErr_SetObject(pa_FileError, e);
        Py_DECREF(e);
    }
    return NULL;
}

/* The consumer is done with its block: free it, let the batch on. */
static void release_cur(pa_files *f)
{
    if (!f->cur)
        return;
    size_t bytes = f->cur->bytes;
    Py_CLEAR(f->owner);            /* the Messages still held keep its arena */
    block_free(f->cur);
    f->cur = NULL;
    f->src_ptr = NULL;
    Py_CLEAR(f->src_str);
    pthread_mutex_lock(&f->mu);
    f->queued -= bytes;
    pthread_cond_signal(&f->space_cv);
    pthread_mutex_unlock(&f->mu);
}

/* Take the next block, waiting for it without the GIL. 1: taken, 0: the
 * end, -1: an exception is set. */
static int take(pa_files *f)
{
    block *b = NULL;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&f->mu);
    while (!f->head && !f->done)
        pthread_cond_wait(&f->items_cv, &f->mu);
    if ((b = f->head) != NULL) {
        f->head = b->next;
        if (!f->head)
            f->tail = NULL;
    }
    pthread_mutex_unlock(&f->mu);
    Py_END_ALLOW_THREADS
    if (!b) {
        files_join(f);
        if (f->nomem || f->rc < 0)
            return PyErr_NoMemory(), -1;
        return 0;
    }
    f->cur = b;
    f->pos = 0;
    f->owner = pa_arena_new(&b->arena, Py_None);   /* takes the arena over */
    if (!f->owner)
        release_cur(f);
    return f->owner ? 1 : -1;
}

static PyObject *source_of(pa_files *f, const char *s)
{
    if (f->src_ptr != s) {
        Py_CLEAR(f->src_str);
        if (!(f->src_str = PyUnicode_DecodeFSDefault(s)))
            return NULL;
        f->src_ptr = s;
    }
    return f->src_str;
}

static PyObject *files_next(PyObject *self)
{
    pa_files *f = (pa_files *)self;
    for (;;) {
        if (f->cur && f->pos == f->cur->n)
            release_cur(f);
        if (!f->cur) {
            int rc = take(f);
            if (rc <= 0)
                return NULL;
        }
        const adexp_batch_item *x = &f->cur->v[f->pos++];
        PyObject *src = source_of(f, x->source);
        if (!src)
            return NULL;
        if (x->kind == ADEXP_BATCH_ITEM_MESSAGE)
            return pa_message_new(x->msg, f->owner, src);
        if (x->kind == ADEXP_BATCH_ITEM_FAILED && !f->skip_errors)
            return pa_file_error(pa_errno_of(x->why), x->why, src);
    }
}

/* For adexp.dask, which cuts big files into byte ranges as the batch cuts
 * big inputs (adexp_batch_next_cut), and leaves packed ones whole. */
PyObject *pa_next_cut(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data;
    Py_ssize_t at;
    int envelope = 1;
    if (!PyArg_ParseTuple(args, "y*n|p:_next_cut", &data, &at, &envelope))
        return NULL;
    size_t len = (size_t)data.len;
    size_t cut = at < 0 ? 0 : (size_t)at;
    cut = adexp_batch_next_cut(data.buf, len, cut, envelope);
    PyBuffer_Release(&data);
    return PyLong_FromSize_t(cut);
}

/* The messages of data[0..len) that start before cut, and the offset of
 * the first that starts at or after it (len when none does): no GIL, no
 * Message made. -1 when out of memory. */
static long long count_before(adexp_parser *p, const char *data, size_t len, size_t cut,
                              size_t *next)
{
    adexp_arena arena;
    pa_arena_init(&arena, 1 << 16);
    adexp_parser_reset(p, data, len);
    long long n = 0;
    adexp_msg m;
    adexp_status st;
    *next = len;
    while ((st = adexp_parser_next(p, &arena, &m)) != ADEXP_END) {
        if (st == ADEXP_E_NOMEM) {
            n = -1;
            break;
        }
        if (m.offset >= cut) {
            *next = m.offset;
            break;
        }
        n++;
        adexp_arena_reset(&arena);
    }
    adexp_arena_free(&arena);
    return n;
}

PyObject *pa_count_before(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    Py_buffer data;
    Py_ssize_t cut;
    adexp_options o;
    if (!PyArg_ParseTuple(args, "y*n:_count_before", &data, &cut))
        return NULL;
    PyObject *kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    adexp_parser *p = NULL;
    if (kw && pa_options_take(kw, &o) == 0 && pa_no_more_kwargs(kw, "_count_before") == 0)
        p = pa_parser_get(&o);
    Py_XDECREF(kw);
    if (!p) {
        PyBuffer_Release(&data);
        return NULL;
    }
    size_t next;
    long long n;
    Py_BEGIN_ALLOW_THREADS
    n = count_before(p, data.buf, (size_t)data.len, cut < 0 ? 0 : (size_t)cut, &next);
    Py_END_ALLOW_THREADS
    pa_parser_put(p, &o);
    PyBuffer_Release(&data);
    if (n < 0)
        return PyErr_NoMemory();
    return Py_BuildValue("(Ln)", n, (Py_ssize_t)next);
}

/* Line breaks in data[0..end) by the parser's rule (LF, CRLF, a lone CR),
 * and where the last line starts (0 when none ends there). */
PyObject *pa_line_breaks(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data;
    Py_ssize_t end;
    if (!PyArg_ParseTuple(args, "y*n:_line_breaks", &data, &end))
        return NULL;
    const unsigned char *p = data.buf;
    size_t n = end < 0 ? 0 : (size_t)end > (size_t)data.len ? (size_t)data.len : (size_t)end;
    size_t breaks = 0, bol = 0;
    Py_BEGIN_ALLOW_THREADS
    for (size_t i = 0; i < n; i++)
        if (p[i] == '\n' || (p[i] == '\r' && (i + 1 >= n || p[i + 1] != '\n')))
            breaks++, bol = i + 1;
        else if (p[i] == '\r')
            bol = i + 1;
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    return Py_BuildValue("(nn)", (Py_ssize_t)breaks, (Py_ssize_t)bol);
}

PyObject *pa_is_packed(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) != 0)
        return NULL;
    int packed = adexp_batch_is_packed(data.buf, (size_t)data.len);
    PyBuffer_Release(&data);
    return PyBool_FromLong(packed);
}

PyTypeObject pa_FilesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp._FileMessages",
    .tp_basicsize = sizeof(pa_files),
    .tp_dealloc = files_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Iterator over the messages of many inputs, in input order.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = files_next,
};
