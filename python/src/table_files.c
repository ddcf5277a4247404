/* _Table.add_files: the rows adexp-parse --format csv writes for every
 * message of the inputs, with no Message made. The batch driver reads and
 * parses the inputs on its threads without the GIL, and the rows it hands
 * over in input order are gathered in one buffer, then cut into the
 * table's columns with the GIL.
 *
 * Two ways to the same rows. Usually the batch's own TSV writer writes
 * them on its workers, as adexp-parse --format tsv does (on_output), with
 * the table's selection; but that output does not say which input failed.
 * So with errors='raise', a run in which an input failed whole (not one
 * whose messages have errors: stats.inputs_failed) is made again
 * the other way: the batch hands over each message (on_item), the table
 * writes its rows (pa_table_rows), and the first failed input stops the
 * run and raises adexp.FileError as parse_files raises it. A stream
 * cannot be read twice: with errors='raise' an input that is one goes the
 * second way from the start. With errors='skip' failed inputs are passed
 * over.
 *
 * messages: for one range of a file cut into many (adexp.dask), the rows
 * of the input's first so many messages only; the input goes on past
 * them, as a message's end (and where its errors lie) depends on what
 * follows. The call returns the number of messages parsed: if it is not
 * more, the last one kept may go on past what was given. */
#include "pyadexp.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

typedef struct rows_run {
    PyObject *table;
    adexp_buf rows;
    int skip_errors;
    int items;                 /* 1: on_item and pa_table_rows; 0: the TSV writer */
    int in_header;             /* the TSV header row not yet passed */
    int nomem;
    size_t keep;               /* the rows of the first so many messages */
    char *failed_source;       /* the first failed input (items, errors='raise') */
    char *failed_why;
    adexp_batch_stats stats;
} rows_run;

/* The TSV writer's output, without its header row: no GIL here. */
static int on_tsv(void *ctx, const char *data, size_t len)
{
    rows_run *r = ctx;
    if (r->in_header) {
        const char *nl = memchr(data, '\n', len);
        if (!nl)
            return 0;
        r->in_header = 0;
        len -= (size_t)(nl + 1 - data);
        data = nl + 1;
    }
    if (adexp_buf_put(&r->rows, data, len))
        return 0;
    r->nomem = 1;
    return 1;
}

/* The batch's items: no GIL here. */
static int on_row_item(void *ctx, const adexp_batch_item *it)
{
    rows_run *r = ctx;
    if (it->kind == ADEXP_BATCH_ITEM_MESSAGE) {
        if (pa_table_rows(r->table, it->msg, it->source, &r->rows) >= 0)
            return 0;
        r->nomem = 1;
        return 1;
    }
    if (it->kind != ADEXP_BATCH_ITEM_FAILED || r->skip_errors)
        return 0;
    r->failed_source = strdup(it->source);
    r->failed_why = strdup(it->why ? it->why : "");
    if (!r->failed_source || !r->failed_why)
        r->nomem = 1;
    return 1;
}

/* A batch over inputs that hands its rows to r, or NULL with an exception
 * set. include is kept by the caller until the run ends. */
static adexp_batch *batch_of(rows_run *r, PyObject *inputs, unsigned jobs, const char *include,
                             const adexp_options *opts)
{
    adexp_batch_options o = adexp_batch_options_default();
    o.jobs = jobs;
    o.parser = *opts;
    o.err_fd = -1;
    o.out_fd = -1;
    o.include = include;
    if (r->items) {
        o.on_item = on_row_item;
        o.item_ctx = r;
    } else {
        o.format = ADEXP_BATCH_TSV;
        o.select = pa_table_select(r->table, &o.validate);
        o.on_output = on_tsv;
        o.output_ctx = r;
        r->in_header = 1;
    }
    adexp_batch *b = adexp_batch_new(&o);
    if (!b)
        return PyErr_NoMemory(), NULL;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(inputs); i++)
        if (pa_batch_add_input(b, PyList_GET_ITEM(inputs, i)) != 0) {
            adexp_batch_free(b);
            return NULL;
        }
    return b;
}

/* One run into r->rows, without the GIL. Returns 0, or -1 with an
 * exception set (out of memory, or the failed input with items). */
static int run(rows_run *r, PyObject *inputs, unsigned jobs, const char *include,
               const adexp_options *opts)
{
    adexp_batch *b = batch_of(r, inputs, jobs, include, opts);
    if (!b)
        return -1;
    int rc;
    r->rows.len = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = adexp_batch_run(b, &r->stats);
    Py_END_ALLOW_THREADS
    adexp_batch_free(b);
    if (r->nomem || rc < 0)
        return PyErr_NoMemory(), -1;
    if (r->failed_source) {
        PyObject *src = PyUnicode_DecodeFSDefault(r->failed_source);
        if (src) {
            pa_file_error(pa_errno_of(r->failed_why), r->failed_why, src);
            Py_DECREF(src);
        }
        return -1;
    }
    return 0;
}

/* Whether an input is read as a stream, once only: ("fd", name, fd), or
 * ("path", "-") for standard input. */
static int has_stream(PyObject *inputs)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(inputs); i++) {
        PyObject *in = PyList_GET_ITEM(inputs, i);
        if (!PyTuple_Check(in) || PyTuple_GET_SIZE(in) < 2)
            continue;
        PyObject *kind = PyTuple_GET_ITEM(in, 0), *name = PyTuple_GET_ITEM(in, 1);
        if ((PyUnicode_Check(kind) && PyUnicode_CompareWithASCIIString(kind, "fd") == 0) ||
            (PyTuple_GET_SIZE(in) == 2 && PyUnicode_Check(name) &&
             PyUnicode_CompareWithASCIIString(name, "-") == 0))
            return 1;
    }
    return 0;
}

/* The bytes of rows' rows whose index (the cell after the source) is
 * below keep. */
static size_t rows_before(const adexp_buf *rows, size_t keep)
{
    const char *p = rows->data, *end = p + rows->len;
    while (keep != SIZE_MAX && p < end) {
        const char *tab = memchr(p, '\t', (size_t)(end - p));
        size_t index = 0;
        for (const char *d = tab ? tab + 1 : end; d < end && *d >= '0' && *d <= '9'; d++)
            index = index * 10 + (size_t)(*d - '0');
        if (index >= keep)
            break;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return keep == SIZE_MAX ? rows->len : (size_t)(p - rows->data);
}

static int add_rows(rows_run *r, PyObject *inputs, unsigned jobs, const char *include,
                    const adexp_options *opts)
{
    r->items = !r->skip_errors && has_stream(inputs);
    if (run(r, inputs, jobs, include, opts) != 0)
        return -1;
    if (!r->items && !r->skip_errors && r->stats.inputs_failed) {
        r->items = 1;          /* raises the failure in its place */
        if (run(r, inputs, jobs, include, opts) != 0)
            return -1;
    }
    return pa_table_cut(r->table, r->rows.data, rows_before(&r->rows, r->keep));
}

static int messages_arg(PyObject *v, size_t *out)
{
    if (!v || v == Py_None)
        return 0;
    size_t n = PyLong_Check(v) ? PyLong_AsSize_t(v) : (size_t)-1;
    if (n == (size_t)-1) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "messages must be an int >= 0");
        }
        return -1;
    }
    *out = n;
    return 0;
}

PyObject *pa_table_add_files(PyObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    if (!kw)
        return NULL;
    PyObject *inputs, *jobs_arg = Py_None, *fs = NULL;
    PyObject *errors = pa_pop(kw, "errors"), *include = pa_pop(kw, "include");
    PyObject *messages = pa_pop(kw, "messages");
    rows_run r = {.table = self, .keep = SIZE_MAX};
    adexp_buf_init(&r.rows, NULL);
    adexp_options opts;
    unsigned jobs;
    int rc = -1;
    if (PyArg_ParseTuple(args, "O!|O:add_files", &PyList_Type, &inputs, &jobs_arg) &&
        !pa_options_take(kw, &opts) && !pa_no_more_kwargs(kw, "add_files") &&
        !pa_parse_jobs(jobs_arg, &jobs) && !pa_parse_errors_arg(errors, &r.skip_errors) &&
        (!include || include == Py_None || PyUnicode_FSConverter(include, &fs)) &&
        messages_arg(messages, &r.keep) == 0)
        rc = add_rows(&r, inputs, jobs, fs ? PyBytes_AS_STRING(fs) : NULL, &opts);
    adexp_buf_free(&r.rows);
    free(r.failed_source);
    free(r.failed_why);
    Py_XDECREF(fs);
    Py_DECREF(kw);
    Py_XDECREF(errors);
    Py_XDECREF(include);
    Py_XDECREF(messages);
    if (rc != 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(r.stats.messages);
}
