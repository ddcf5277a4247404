/* adexp.parse_files: many files read and parsed on a small pool of
 * threads without the GIL, their messages handed out in input order.
 *
 * The batch driver (adexp_batch.h) writes each message's output to a file
 * descriptor and has no per-message hook, so the module keeps its own pool:
 * each worker takes the next file, reads it, refuses what adexp-parse
 * refuses and parses every message into the file's arena. The consumer waits
 * (GIL released) for the file it is at and wraps its records into Messages.
 * Workers run at most WINDOW files ahead of the consumer, which bounds the
 * memory held by files parsed and not yet consumed. */
#include "pyadexp.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JOBS 256
#define WINDOW_PER_JOB 8
#define MAX_FILE_SIZE ((size_t)256 << 20)   /* a file is read whole into memory here */

PyObject *pa_FileError;

int pa_read_file(const char *path, size_t limit, char **data, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno;
    struct stat st;
    int err = fstat(fd, &st) != 0 ? errno : 0;
    if (!err && !S_ISREG(st.st_mode))
        err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    if (!err && (uintmax_t)st.st_size > limit)
        err = EFBIG;
    size_t cap = err ? 0 : (size_t)st.st_size + 1, n = 0;
    char *buf = err ? NULL : malloc(cap);
    if (!err && !buf)
        err = ENOMEM;
    while (!err) {                 /* read to the end: the file may grow */
        if (n == cap) {
            char *b = cap > limit ? NULL : realloc(buf, cap * 2);
            if (!b) {
                err = cap > limit ? EFBIG : ENOMEM;
                break;
            }
            buf = b;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            err = errno;
        else if (r == 0)
            break;
        else
            n += (size_t)r;
    }
    close(fd);
    if (!err && n > limit)
        err = EFBIG;
    if (err) {
        free(buf);
        return err;
    }
    *data = buf;
    *len = n;
    return 0;
}

typedef struct slot {
    char *path;                /* file system encoding, malloc'd */
    PyObject *source;          /* the path as given, as str */
    char *data;
    size_t len;
    adexp_arena arena;         /* the trees of all its messages */
    pa_msgs msgs;
    int err;                   /* errno, or -1: refused content (why) */
    char why[96];
    int done;
} slot;

typedef struct pa_files {
    PyObject_HEAD
    slot *slots;
    size_t n;
    size_t taken;              /* next slot a worker takes */
    size_t cur, rec;           /* the consumer's slot and record in it */
    size_t window;
    int stop, skip_errors;
    adexp_options opts;
    pthread_t threads[MAX_JOBS];
    unsigned nthreads;
    pthread_mutex_t mu;
    pthread_cond_t done_cv, space_cv;
    PyObject *owner;           /* Blob of the current slot's data */
} pa_files;

static void work_on(adexp_parser *p, slot *s)
{
    s->err = pa_read_file(s->path, MAX_FILE_SIZE, &s->data, &s->len);
    if (!s->err && pa_refuse_content(s->data, s->len, s->why, sizeof s->why))
        s->err = -1;
    if (!s->err && !p)
        s->err = ENOMEM;
    if (!s->err) {
        pa_arena_init(&s->arena, s->len);
        if (pa_parse_all(p, s->data, s->len, &s->arena, &s->msgs) != 0)
            s->err = ENOMEM;
    }
}

static void *worker(void *arg)
{
    pa_files *it = arg;
    adexp_parser *p = adexp_parser_new(&it->opts, NULL);
    pthread_mutex_lock(&it->mu);
    for (;;) {
        while (!it->stop && it->taken < it->n && it->taken >= it->cur + it->window)
            pthread_cond_wait(&it->space_cv, &it->mu);
        if (it->stop || it->taken >= it->n)
            break;
        slot *s = &it->slots[it->taken++];
        pthread_mutex_unlock(&it->mu);
        work_on(p, s);
        pthread_mutex_lock(&it->mu);
        s->done = 1;
        pthread_cond_broadcast(&it->done_cv);
    }
    pthread_mutex_unlock(&it->mu);
    adexp_parser_free(p);
    return NULL;
}

static void slot_free(slot *s)
{
    free(s->path);
    s->path = NULL;
    Py_CLEAR(s->source);
    free(s->data);
    s->data = NULL;
    pa_msgs_free(&s->msgs);
    adexp_arena_free(&s->arena);
}

static int fill_slot(slot *s, PyObject *path)
{
    PyObject *fs = NULL, *src = NULL;
    if (!PyUnicode_Check(path) && !PyBytes_Check(path) && !PyObject_HasAttrString(path, "__fspath__")) {
        PyErr_Format(PyExc_TypeError, "parse_files() paths must be str, bytes or "
                     "os.PathLike, not %.100s", Py_TYPE(path)->tp_name);
        return -1;
    }
    if (!PyUnicode_FSConverter(path, &fs))
        return -1;
    if (!PyUnicode_FSDecoder(path, &src)) {
        Py_DECREF(fs);
        return -1;
    }
    s->path = strdup(PyBytes_AS_STRING(fs));
    Py_DECREF(fs);
    s->source = src;
    if (!s->path) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int start_threads(pa_files *it, unsigned jobs)
{
    for (; it->nthreads < jobs; it->nthreads++)
        if (pthread_create(&it->threads[it->nthreads], NULL, worker, it) != 0)
            break;
    if (it->nthreads == 0) {
        PyErr_SetString(PyExc_OSError, "parse_files(): cannot start a thread");
        return -1;
    }
    return 0;
}

static int parse_jobs(PyObject *v, unsigned *jobs)
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

static int parse_errors_arg(PyObject *v, int *skip)
{
    if (!v) {
        *skip = 0;
        return 0;
    }
    if (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "raise") == 0)
        return *skip = 0, 0;
    if (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "skip") == 0)
        return *skip = 1, 0;
    PyErr_SetString(PyExc_ValueError, "errors must be 'raise' or 'skip'");
    return -1;
}

static int files_fill(pa_files *it, PyObject *paths)
{
    if (PyUnicode_Check(paths) || PyBytes_Check(paths)) {
        PyErr_SetString(PyExc_TypeError, "parse_files() takes an iterable of paths, "
                        "not one path: wrap it in a list");
        return -1;
    }
    PyObject *seq = PySequence_Fast(paths, "parse_files() paths must be an iterable");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    it->slots = calloc(n ? (size_t)n : 1, sizeof(slot));
    if (!it->slots) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++, it->n++)
        if (fill_slot(&it->slots[i], PySequence_Fast_GET_ITEM(seq, i)) != 0) {
            slot_free(&it->slots[i]);
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

static PyObject *pop(PyObject *kw, const char *key)
{
    PyObject *v = PyDict_GetItemString(kw, key);
    if (v) {
        Py_INCREF(v);
        PyDict_DelItemString(kw, key);
    }
    return v;
}

PyObject *pa_parse_files(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    PyObject *kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    if (!kw)
        return NULL;
    PyObject *paths, *jobs_pos = NULL;
    PyObject *jobs_kw = pop(kw, "jobs"), *errors = pop(kw, "errors");
    pa_files *it = NULL;
    adexp_options opts;
    unsigned jobs;
    int skip;
    if (!PyArg_ParseTuple(args, "O|O:parse_files", &paths, &jobs_pos))
        goto fail;
    if (jobs_pos && jobs_kw) {
        PyErr_SetString(PyExc_TypeError, "parse_files() got jobs twice");
        goto fail;
    }
    if (pa_options_take(kw, &opts) || pa_no_more_kwargs(kw, "parse_files") ||
        parse_jobs(jobs_pos ? jobs_pos : jobs_kw ? jobs_kw : Py_None, &jobs) ||
        parse_errors_arg(errors, &skip))
        goto fail;
    if (!(it = PyObject_New(pa_files, &pa_FilesType)))
        goto fail;
    memset((char *)it + sizeof(PyObject), 0, sizeof *it - sizeof(PyObject));
    pthread_mutex_init(&it->mu, NULL);
    pthread_cond_init(&it->done_cv, NULL);
    pthread_cond_init(&it->space_cv, NULL);
    it->opts = opts;
    it->skip_errors = skip;
    it->window = (size_t)jobs * WINDOW_PER_JOB;
    if (files_fill(it, paths) != 0 || start_threads(it, jobs) != 0)
        goto fail;
    Py_DECREF(kw);
    Py_XDECREF(jobs_kw);
    Py_XDECREF(errors);
    return (PyObject *)it;
fail:
    Py_XDECREF(it);
    Py_DECREF(kw);
    Py_XDECREF(jobs_kw);
    Py_XDECREF(errors);
    return NULL;
}

static void files_dealloc(PyObject *self)
{
    pa_files *it = (pa_files *)self;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&it->mu);
    it->stop = 1;
    pthread_cond_broadcast(&it->space_cv);
    pthread_mutex_unlock(&it->mu);
    for (unsigned i = 0; i < it->nthreads; i++)
        pthread_join(it->threads[i], NULL);
    Py_END_ALLOW_THREADS
    for (size_t i = 0; i < it->n; i++)
        slot_free(&it->slots[i]);
    free(it->slots);
    Py_XDECREF(it->owner);
    pthread_mutex_destroy(&it->mu);
    pthread_cond_destroy(&it->done_cv);
    pthread_cond_destroy(&it->space_cv);
    Py_TYPE(self)->tp_free(self);
}

/* The consumer is done with slot cur: free it and let the workers on. */
static void advance(pa_files *it)
{
    slot_free(&it->slots[it->cur]);
    Py_CLEAR(it->owner);
    pthread_mutex_lock(&it->mu);
    it->cur++;
    it->rec = 0;
    pthread_cond_broadcast(&it->space_cv);
    pthread_mutex_unlock(&it->mu);
}

static void wait_done(pa_files *it, slot *s)
{
    pthread_mutex_lock(&it->mu);
    int done = s->done;
    pthread_mutex_unlock(&it->mu);
    if (done)
        return;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&it->mu);
    while (!s->done)
        pthread_cond_wait(&it->done_cv, &it->mu);
    pthread_mutex_unlock(&it->mu);
    Py_END_ALLOW_THREADS
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

/* Enter slot cur: wait for it, check it, take its bytes into a Blob.
 * Returns 1 when it has records to give, 0 to go on, -1 on an error. */
static int enter(pa_files *it)
{
    slot *s = &it->slots[it->cur];
    wait_done(it, s);
    if (s->err) {
        if (!it->skip_errors)
            pa_file_error(s->err > 0 ? s->err : 0, s->why, s->source);
        advance(it);
        return it->skip_errors ? 0 : -1;
    }
    char *data = s->data;
    s->data = NULL;            /* the Blob frees it, even when it fails */
    PyObject *blob = pa_blob_new(data, s->len);
    it->owner = blob ? pa_arena_new(&s->arena, blob) : NULL;
    Py_XDECREF(blob);
    if (!it->owner) {
        advance(it);
        return -1;
    }
    if (s->msgs.n == 0) {
        advance(it);
        return 0;
    }
    return 1;
}

static PyObject *files_next(PyObject *self)
{
    pa_files *it = (pa_files *)self;
    while (it->cur < it->n) {
        if (!it->owner) {
            int rc = enter(it);
            if (rc < 0)
                return NULL;
            if (rc == 0)
                continue;
        }
        slot *s = &it->slots[it->cur];
        PyObject *m = pa_message_new(&s->msgs.v[it->rec++], it->owner, s->source);
        if (it->rec == s->msgs.n)
            advance(it);
        return m;
    }
    return NULL;
}

PyTypeObject pa_FilesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp._FileMessages",
    .tp_basicsize = sizeof(pa_files),
    .tp_dealloc = files_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Iterator over the messages of many files, in input order.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = files_next,
};
