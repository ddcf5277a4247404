/* adexp._Table: the rows adexp-parse --format csv writes for Messages, as
 * columns of str (None for an empty cell). The selection (fields, rows,
 * titles) and the cells are the CSV writer's own (lib/out): each message's
 * rows are written as TSV, whose cells are the CSV's values unquoted (folded,
 * so without tab or line break), then cut at the tabs. adexp/tables.py types
 * the columns. */
#include "pyadexp.h"

#include <stdlib.h>
#include <string.h>

#include "batch_warnings.h"
#include "select.h"

typedef struct pa_table {
    PyObject_HEAD
    adexp_select *sel;
    int validate;
    size_t ncsv;               /* the CSV's columns, without warnings */
    PyObject *columns;         /* tuple of (name, kind, value_class) */
    PyObject *cells;           /* list of lists, one per column */
    PyObject **last;           /* per column: the last cell made, reused when
                                  the next has the same bytes (a message's
                                  cells on each of its item rows) */
    PyObject *source;          /* the last source seen, and its bytes */
    PyObject *source_bytes;
    adexp_buf buf;
    adexp_arena arena;         /* the findings of the message validated */
    adexp_findings findings;
} pa_table;

/* What a column decodes to, for its dtype (tables.py): the suffix and the
 * value type of the field at its path. */
static const char *kind_of(const sel_column *c)
{
    switch (c->suffix) {
    case SUF_FT:
    case SUF_M:
        return "int";
    case SUF_DEG:
        return "float";
    case SUF_UTC:
        if (c->value_type == ADEXP_VALUE_DATE)
            return "date";
        /* EOBT_utc joins EOBD: a date-time, or a bare time without one */
        return c->value_type == ADEXP_VALUE_TIME && !c->eobt ? "time" : "datetime";
    default:
        return "text";
    }
}

/* The dictionary's value syntax of the last keyword of c's path ("" when
 * it does not know it). */
static const char *value_class_of(const sel_column *c)
{
    const char *last = strrchr(c->path, '.');
    adexp_dict_info info;
    last = last ? last + 1 : c->path;
    return adexp_dict_find(last, &info) ? info.value_class : "";
}

static int add_column(PyObject *list, const char *name, const char *kind, const char *vclass)
{
    PyObject *t = Py_BuildValue("(sss)", name, kind, vclass);
    int rc = t ? PyList_Append(list, t) : -1;
    Py_XDECREF(t);
    return rc;
}

/* The columns in the CSV header's order (adexp_csv_header). */
static PyObject *columns_of(const adexp_select *sel, int validate)
{
    PyObject *list = PyList_New(0);
    int rc = !list || add_column(list, "source", "text", "") ||
             add_column(list, "index", "count", "") || add_column(list, "title", "text", "titleid");
    for (int pass = 0; pass < 2 && !rc; pass++) {
        if (pass == 1 && sel->rows)
            rc = add_column(list, "item_index", "count", "") ||
                 add_column(list, "item", "text", "") || add_column(list, "item_value", "text", "");
        for (size_t i = 0; i < sel->ncols && !rc; i++)
            if (sel->cols[i].item == pass)
                rc = add_column(list, sel->cols[i].name, kind_of(&sel->cols[i]),
                                value_class_of(&sel->cols[i]));
    }
    rc = rc || add_column(list, "errors", "text", "");
    if (!rc && validate)
        rc = add_column(list, "warnings", "text", "");
    if (rc) {
        Py_XDECREF(list);
        return NULL;
    }
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* NULL or a str, not empty and without a comma (the lists are joined by
 * commas for adexp_select_new). */
static const char *list_arg(PyObject *v, const char *what)
{
    if (v == Py_None)
        return NULL;
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what,
                     Py_TYPE(v)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8(v);
}

static void table_dealloc(PyObject *self)
{
    pa_table *t = (pa_table *)self;
    adexp_select_free(t->sel);
    Py_XDECREF(t->columns);
    Py_XDECREF(t->cells);
    if (t->last) {
        for (size_t i = 0; i < t->ncsv + 1; i++)
            Py_XDECREF(t->last[i]);
        free(t->last);
    }
    Py_XDECREF(t->source);
    Py_XDECREF(t->source_bytes);
    adexp_buf_free(&t->buf);
    adexp_arena_free(&t->arena);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *new_cells(size_t n)
{
    PyObject *cells = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; cells && i < n; i++) {
        PyObject *l = PyList_New(0);
        if (!l) {
            Py_CLEAR(cells);
            break;
        }
        PyList_SET_ITEM(cells, (Py_ssize_t)i, l);
    }
    return cells;
}

/* _Table(fields, rows, titles, validate, dictionary): fields and titles
 * comma-separated, as adexp-parse takes them; a bad list or a keyword the
 * dictionary (an adexp._Dictionary, or None: the built-in one) does not
 * know is a ValueError with the CLI's sentence. The messages added must be
 * parsed with the same dictionary. */
static PyObject *table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"fields", "rows", "titles", "validate", "dictionary", NULL};
    PyObject *fields = Py_None, *rows = Py_None, *titles = Py_None, *dict = Py_None;
    int validate = 0;
    const adexp_dictionary *d;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOOpO:_Table", kwlist, &fields, &rows,
                                     &titles, &validate, &dict) ||
        pa_dictionary_of(dict, &d) != 0)
        return NULL;
    const char *f = list_arg(fields, "fields"), *r = list_arg(rows, "rows"),
               *ti = list_arg(titles, "titles");
    if (PyErr_Occurred())
        return NULL;
    char err[512];
    adexp_select *sel = adexp_select_new(f, r, ti, err, sizeof err);
    if (sel && adexp_select_check_names(sel, d, err, sizeof err) != 0) {
        adexp_select_free(sel);
        sel = NULL;
    }
    if (!sel) {
        /* "--fields: unknown field ARCDI (did you mean ...)": the argument's
         * name as Python spells it */
        if (strcmp(err, "out of memory") == 0)
            return PyErr_NoMemory();
        const char *e = strncmp(err, "--", 2) == 0 ? err + 2 : err;
        if (strncmp(e, "title:", 6) == 0)
            return PyErr_Format(PyExc_ValueError, "titles:%s", e + 6);
        return PyErr_Format(PyExc_ValueError, "%s", e);
    }
    pa_table *t = (pa_table *)type->tp_alloc(type, 0);
    if (!t) {
        adexp_select_free(sel);
        return NULL;
    }
    t->sel = sel;
    t->validate = validate;
    adexp_buf_init(&t->buf, NULL);
    adexp_arena_init(&t->arena, NULL);
    adexp_findings_init(&t->findings);
    t->findings.dictionary = d;
    if (!(t->columns = columns_of(sel, validate)))
        goto fail;
    t->ncsv = (size_t)PyTuple_GET_SIZE(t->columns) - (size_t)validate;
    if (!(t->cells = new_cells(t->ncsv + (size_t)validate)))
        goto fail;
    if (!(t->last = calloc(t->ncsv + 1, sizeof *t->last))) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* Appends the cell s[0..n) to column i: None when empty, else its str. */
static int put_cell(pa_table *t, size_t i, const char *s, size_t n)
{
    PyObject *v = Py_None, **last = &t->last[i];
    if (n) {
        if (*last && PyBytes_GET_SIZE(PyTuple_GET_ITEM(*last, 0)) == (Py_ssize_t)n &&
            memcmp(PyBytes_AS_STRING(PyTuple_GET_ITEM(*last, 0)), s, n) == 0) {
            v = PyTuple_GET_ITEM(*last, 1);
        } else {
            /* the writer's cells are valid UTF-8 */
            PyObject *str = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "strict");
            PyObject *b = str ? PyBytes_FromStringAndSize(s, (Py_ssize_t)n) : NULL;
            PyObject *pair = b ? PyTuple_Pack(2, b, str) : NULL;
            Py_XDECREF(b);
            Py_XDECREF(str);
            if (!pair)
                return -1;
            Py_XSETREF(*last, pair);
            v = PyTuple_GET_ITEM(pair, 1);
        }
    }
    return PyList_Append(PyList_GET_ITEM(t->cells, (Py_ssize_t)i), v);
}

/* Cuts the rows in t->buf into the columns; each row also gets the
 * warnings cell w (NULL: no warnings column). Returns the rows, or -1. */
static Py_ssize_t cut_rows(pa_table *t, const char *w, size_t wlen)
{
    const char *p = t->buf.data, *end = p + t->buf.len;
    Py_ssize_t rows = 0;
    while (p < end) {
        for (size_t i = 0; i < t->ncsv; i++) {
            const char *stop = i + 1 < t->ncsv ? "\t" : "\n";
            const char *e = memchr(p, *stop, (size_t)(end - p));
            if (!e) {
                PyErr_SetString(PyExc_RuntimeError, "a TSV row with too few cells");
                return -1;
            }
            if (put_cell(t, i, p, (size_t)(e - p)) != 0)
                return -1;
            p = e + 1;
        }
        if (w && put_cell(t, t->ncsv, w, wlen) != 0)
            return -1;
        rows++;
    }
    return rows;
}

/* The source as the CLI writes it: the path's bytes. */
static const char *source_of(pa_table *t, PyObject *source)
{
    if (source != t->source) {
        PyObject *b = PyUnicode_EncodeFSDefault(source);
        if (!b)
            return NULL;
        Py_XSETREF(t->source_bytes, b);
        Py_INCREF(source);
        Py_XSETREF(t->source, source);
    }
    return PyBytes_AS_STRING(t->source_bytes);
}

/* The message's rows, if the selection keeps its title. */
static int add_message(pa_table *t, pa_message *m)
{
    if (!adexp_select_keeps(t->sel, &m->msg))
        return 0;
    const char *source = source_of(t, m->source);
    if (!source)
        return -1;
    t->buf.len = 0;
    if (adexp_csv_write(&t->buf, &m->msg, source, t->sel, '\t') != ADEXP_OK) {
        PyErr_NoMemory();
        return -1;
    }
    char *w = NULL;
    size_t wlen = 0;
    if (t->validate) {
        adexp_status st = adexp_validate(&m->msg, &t->arena, &t->findings);
        w = st == ADEXP_OK ? batch_warnings_cell(&t->findings, &wlen) : NULL;
        adexp_arena_reset(&t->arena);
        if (!w) {
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_ssize_t rows = cut_rows(t, t->validate ? w : NULL, wlen);
    free(w);
    return rows < 0 ? -1 : 0;
}

static PyObject *table_add(PyObject *self, PyObject *messages)
{
    pa_table *t = (pa_table *)self;
    PyObject *it = PyObject_GetIter(messages), *m;
    if (!it)
        return NULL;
    while ((m = PyIter_Next(it)) != NULL) {
        int rc = -1;
        if (!PyObject_TypeCheck(m, &pa_MessageType))
            PyErr_Format(PyExc_TypeError, "to_pandas() takes paths or Messages, not %.100s",
                         Py_TYPE(m)->tp_name);
        else
            rc = add_message(t, (pa_message *)m);
        Py_DECREF(m);
        if (rc != 0)
            break;
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* The columns' cells so far, handed over (the table starts empty again). */
static PyObject *table_take(PyObject *self, PyObject *unused)
{
    (void)unused;
    pa_table *t = (pa_table *)self;
    PyObject *fresh = new_cells((size_t)PyList_GET_SIZE(t->cells));
    if (!fresh)
        return NULL;
    PyObject *cells = t->cells;
    t->cells = fresh;
    return cells;
}

static PyObject *table_unseen_titles(PyObject *self, PyObject *unused)
{
    (void)unused;
    pa_table *t = (pa_table *)self;
    size_t n = adexp_select_unseen_titles(t->sel, NULL, 0);
    if (n == 0)
        return PyList_New(0);
    size_t cap = 4096;
    char *out = malloc(cap);
    if (!out)
        return PyErr_NoMemory();
    adexp_select_unseen_titles(t->sel, out, cap);
    PyObject *s = PyUnicode_DecodeUTF8(out, (Py_ssize_t)strnlen(out, cap), "replace");
    free(out);
    if (!s)
        return NULL;
    PyObject *comma = PyUnicode_FromString(","), *list = NULL;
    if (comma)
        list = PyUnicode_Split(s, comma, -1);
    Py_XDECREF(comma);
    Py_DECREF(s);
    return list;
}

static PyObject *table_columns(PyObject *self, void *c)
{
    (void)c;
    PyObject *cols = ((pa_table *)self)->columns;
    Py_INCREF(cols);
    return cols;
}

static PyMethodDef table_methods[] = {
    {"add", table_add, METH_O,
     "add(messages): the CSV rows of each Message of the iterable whose title\n"
     "the selection keeps."},
    {"take", table_take, METH_NOARGS,
     "take() -> list[list[str | None]]: the cells of each column so far; the\n"
     "table is empty afterwards."},
    {"unseen_titles", table_unseen_titles, METH_NOARGS,
     "unseen_titles() -> list[str]: the titles asked for that no message had."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef table_getset[] = {
    {"columns", table_columns, NULL,
     "tuple of (name, kind, value_class): the CSV header's columns, what each\n"
     "decodes to (text, count, int, float, date, datetime, time) and the\n"
     "dictionary's value syntax of its field.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject pa_TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp._adexp._Table",
    .tp_basicsize = sizeof(pa_table),
    .tp_dealloc = table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "_Table(fields=None, rows=None, titles=None, validate=False, dictionary=None):\n"
              "the rows\n"
              "of adexp-parse --format csv, as columns.",
    .tp_methods = table_methods,
    .tp_getset = table_getset,
    .tp_new = table_new,
};
