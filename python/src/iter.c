/* adexp.iter_file: the messages of one file, parsed one at a time as they
 * are asked for. The trees go into an arena that is replaced by a new one
 * every ROTATE bytes of messages: a big file's trees are never all in
 * memory at once (only its bytes), as long as the messages are let go. */
#include "pyadexp.h"
#include "batch_nul.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_SIZE ((size_t)256 << 20)   /* a file is read whole into memory here */
#define ROTATE ((size_t)256 << 10)

typedef struct pa_iter {
    PyObject_HEAD
    adexp_parser *parser;
    PyObject *blob;            /* the file's bytes */
    PyObject *owner;           /* the _Arena the next message goes into */
    size_t used;               /* bytes of the messages in it */
    PyObject *source;
    int done;
    const char *data;          /* the blob's bytes, when they hold a NUL */
    lines_cursor lines;        /* for the NUL_BYTE errors (batch_nul.h) */
} pa_iter;

static void iter_dealloc(PyObject *self)
{
    pa_iter *it = (pa_iter *)self;
    if (it->parser)
        adexp_parser_free(it->parser);
    Py_XDECREF(it->owner);
    Py_XDECREF(it->blob);
    Py_XDECREF(it->source);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *iter_next(PyObject *self)
{
    pa_iter *it = (pa_iter *)self;
    if (it->done)
        return NULL;
    if (!it->owner || it->used > ROTATE) {
        adexp_arena a;
        pa_arena_init(&a, ROTATE);
        Py_CLEAR(it->owner);
        if (!(it->owner = pa_arena_new(&a, it->blob)))
            return NULL;
        it->used = 0;
    }
    adexp_msg msg;
    adexp_status st;
    Py_BEGIN_ALLOW_THREADS
    st = adexp_parser_next(it->parser, pa_arena_of(it->owner), &msg);
    Py_END_ALLOW_THREADS
    if (st == ADEXP_END || st == ADEXP_E_NOMEM) {
        it->done = 1;
        return st == ADEXP_END ? NULL : PyErr_NoMemory();
    }
    it->used += msg.length;
    if (it->data)
        batch_mark_nul(pa_arena_of(it->owner), &it->lines, it->data, &msg);
    return pa_message_new(&msg, it->owner, it->source);
}

PyTypeObject pa_IterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp._FileIterator",
    .tp_basicsize = sizeof(pa_iter),
    .tp_dealloc = iter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Iterator over the messages of one file.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = iter_next,
};

static PyObject *open_file(PyObject *path, const adexp_options *o)
{
    PyObject *fs = NULL, *src = NULL;
    if (!PyUnicode_FSConverter(path, &fs))
        return NULL;
    if (!PyUnicode_FSDecoder(path, &src)) {
        Py_DECREF(fs);
        return NULL;
    }
    char *data = NULL, why[96];
    size_t len = 0;
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = pa_read_file(PyBytes_AS_STRING(fs), MAX_FILE_SIZE, &data, &len);
    Py_END_ALLOW_THREADS
    Py_DECREF(fs);
    if (!err && pa_refuse_content(data, len, why, sizeof why))
        err = -1;
    if (err) {
        free(data);
        pa_file_error(err > 0 ? err : 0, why, src);
        Py_DECREF(src);
        return NULL;
    }
    pa_iter *it = PyObject_New(pa_iter, &pa_IterType);
    if (!it) {
        free(data);
        Py_DECREF(src);
        return NULL;
    }
    it->source = src;
    it->done = 0;
    it->owner = NULL;
    it->used = 0;
    it->data = memchr(data, '\0', len) ? data : NULL;
    it->lines = lines_cursor_at(0);
    it->blob = pa_blob_new(data, len);
    it->parser = it->blob ? adexp_parser_new(o, NULL) : NULL;
    if (!it->parser) {
        Py_DECREF(it);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    adexp_parser_reset(it->parser, data, len);
    return (PyObject *)it;
}

PyObject *pa_iter_file(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    PyObject *path;
    adexp_options o;
    if (!PyArg_ParseTuple(args, "O:iter_file", &path))
        return NULL;
    if (!PyUnicode_Check(path) && !PyBytes_Check(path) &&
        !PyObject_HasAttrString(path, "__fspath__"))
        return PyErr_Format(PyExc_TypeError, "iter_file() path must be str, bytes or "
                            "os.PathLike, not %.100s", Py_TYPE(path)->tp_name);
    PyObject *kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    if (!kw)
        return NULL;
    PyObject *r = NULL;
    if (pa_options_take(kw, &o) == 0 && pa_no_more_kwargs(kw, "iter_file") == 0)
        r = open_file(path, &o);
    Py_DECREF(kw);
    return r;
}
