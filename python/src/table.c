/* adexp._Table: the rows adexp-parse --format csv writes for Messages, as
 * columns. The selection (fields, rows, titles) and the cells are the CSV
 * writer's own (lib/out): each message's rows are written as TSV, whose
 * cells are the CSV's values unquoted (folded, so without tab or line
 * break), then cut at the tabs. A text column is a list of str (None for
 * an empty cell); a column of decoded values (a count, _ft, _m, _deg, _utc)
 * is read back from the companion's text into 8 bytes a row, ready for
 * numpy; adexp/tables.py gives each its dtype. */
#include "pyadexp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batch_warnings.h"
#include "buf.h"
#include "select.h"

/* What a column's cells are read as. */
enum kind { K_TEXT, K_COUNT, K_INT, K_FLOAT, K_DATE, K_DATETIME, K_TIME, K_NKINDS };
static const char *const kind_names[K_NKINDS] = {"text", "count", "int", "float",
                                                "date", "datetime", "time"};

/* A growing block of 8-byte values, or of 1-byte marks. */
typedef struct vec {
    char *p;
    size_t len, cap;
} vec;

typedef struct column {
    int kind;
    PyObject *list;            /* K_TEXT: the cells */
    PyObject *last;            /* K_TEXT: (bytes, str) of the last cell made,
                                  reused when the next has the same bytes (a
                                  message's cells on each of its item rows) */
    vec values;                /* others: int64, double, or nanoseconds since
                                  1970 (date, datetime) or since 00:00 (time),
                                  INT64_MIN (numpy's NaT) when NA */
    vec na;                    /* K_COUNT, K_INT: 1 where the cell is NA */
} column;

typedef struct pa_table {
    PyObject_HEAD
    adexp_select *sel;
    int validate;
    size_t ncols;              /* with it */
    PyObject *columns;         /* tuple of (name, kind, value_class) */
    column *cols;
    PyObject *source;          /* the last source seen, and its bytes */
    PyObject *source_bytes;
    adexp_buf buf;             /* one message's rows, before the warnings cell */
    adexp_buf rows;            /* the rows to cut into the columns */
    adexp_arena arena;         /* the findings of the message validated */
    adexp_findings findings;
} pa_table;

/* What a column decodes to, for its dtype (tables.py): the suffix and the
 * value type of the field at its path. */
static int kind_of(const sel_column *c)
{
    switch (c->suffix) {
    case SUF_FT:
    case SUF_M:
        return K_INT;
    case SUF_DEG:
        return K_FLOAT;
    case SUF_UTC:
        if (c->value_type == ADEXP_VALUE_DATE)
            return K_DATE;
        /* EOBT_utc joins EOBD: a date-time, or a bare time without one */
        return c->value_type == ADEXP_VALUE_TIME && !c->eobt ? K_TIME : K_DATETIME;
    default:
        return K_TEXT;
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

static int add_column(PyObject *list, const char *name, int kind, const char *vclass)
{
    PyObject *t = Py_BuildValue("(sss)", name, kind_names[kind], vclass);
    int rc = t ? PyList_Append(list, t) : -1;
    Py_XDECREF(t);
    return rc;
}

/* The columns in the CSV header's order (adexp_csv_header). */
static PyObject *columns_of(const adexp_select *sel, int validate)
{
    PyObject *list = PyList_New(0);
    int rc = !list || add_column(list, "source", K_TEXT, "") ||
             add_column(list, "index", K_COUNT, "") || add_column(list, "title", K_TEXT, "titleid");
    for (int pass = 0; pass < 2 && !rc; pass++) {
        if (pass == 1 && sel->rows)
            rc = add_column(list, "item_index", K_COUNT, "") ||
                 add_column(list, "item", K_TEXT, "") || add_column(list, "item_value", K_TEXT, "");
        for (size_t i = 0; i < sel->ncols && !rc; i++)
            if (sel->cols[i].item == pass)
                rc = add_column(list, sel->cols[i].name, kind_of(&sel->cols[i]),
                                value_class_of(&sel->cols[i]));
    }
    rc = rc || add_column(list, "errors", K_TEXT, "");
    if (!rc && validate)
        rc = add_column(list, "warnings", K_TEXT, "");
    if (rc) {
        Py_XDECREF(list);
        return NULL;
    }
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* The UTF-8 of str v, or NULL for None (and on a TypeError): a list as
 * adexp-parse takes it, comma-separated (adexp/tables.py joins them). */
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

static void column_free(column *c)
{
    Py_CLEAR(c->list);
    Py_CLEAR(c->last);
    free(c->values.p);
    free(c->na.p);
    memset(&c->values, 0, sizeof c->values);
    memset(&c->na, 0, sizeof c->na);
}

static void table_dealloc(PyObject *self)
{
    pa_table *t = (pa_table *)self;
    adexp_select_free(t->sel);
    Py_XDECREF(t->columns);
    for (size_t i = 0; t->cols && i < t->ncols; i++)
        column_free(&t->cols[i]);
    free(t->cols);
    Py_XDECREF(t->source);
    Py_XDECREF(t->source_bytes);
    adexp_buf_free(&t->buf);
    adexp_buf_free(&t->rows);
    adexp_arena_free(&t->arena);
    Py_TYPE(self)->tp_free(self);
}

/* The kind named by a columns entry (its second item). */
static int kind_named(PyObject *entry)
{
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(entry, 1));
    for (int k = 0; name && k < K_NKINDS; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return k;
    return K_TEXT;
}

/* Empty columns of t->columns' kinds. Returns 0, or -1. */
static int columns_start(pa_table *t)
{
    for (size_t i = 0; i < t->ncols; i++) {
        column *c = &t->cols[i];
        c->kind = kind_named(PyTuple_GET_ITEM(t->columns, (Py_ssize_t)i));
        if (c->kind == K_TEXT && !(c->list = PyList_New(0)))
            return -1;
    }
    return 0;
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
    adexp_buf_init(&t->rows, NULL);
    adexp_arena_init(&t->arena, NULL);
    adexp_findings_init(&t->findings);
    t->findings.dictionary = d;
    t->findings.no_lines = 1;  /* parse_files' Messages are copies; the cell has no lines */
    if (!(t->columns = columns_of(sel, validate)))
        goto fail;
    t->ncols = (size_t)PyTuple_GET_SIZE(t->columns);
    if (!(t->cols = calloc(t->ncols, sizeof *t->cols))) {
        PyErr_NoMemory();
        goto fail;
    }
    if (columns_start(t) != 0)
        goto fail;
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

static int vec_put(vec *v, const void *x, size_t n)
{
    if (v->cap - v->len < n) {
        size_t cap = v->cap ? 2 * v->cap : 4096;
        char *p = realloc(v->p, cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        v->p = p;
        v->cap = cap;
    }
    memcpy(v->p + v->len, x, n);
    v->len += n;
    return 0;
}

/* The decoders read back what the CSV's companions write (companion.c):
 * a cell that is not exactly one such value (empty, or several fields
 * joined by spaces) is NA. */

static int digits_at(const char *s, size_t n, int64_t *out)
{
    int64_t v = 0;
    if (n == 0 || n > 18)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

/* An integer: [-]digits (levels in feet or metres, counts). */
static int read_int(const char *s, size_t n, int64_t *out)
{
    int neg = n > 0 && s[0] == '-';
    if (!digits_at(s + neg, n - (size_t)neg, out))
        return 0;
    if (neg)
        *out = -*out;
    return 1;
}

/* Decimal degrees: [-]digits[.digits]. */
static int read_float(const char *s, size_t n, double *out)
{
    char buf[48];
    if (n == 0 || n >= sizeof buf || strspn(s, "-.0123456789") < n)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end == buf + n;
}

static int two(const char *s, int *out)
{
    if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
        return 0;
    *out = (s[0] - '0') * 10 + (s[1] - '0');
    return 1;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar, if it is
 * a day (H. Hinnant's days_from_civil). */
static int day_number(int y, int m, int d, int64_t *out)
{
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] || (m == 2 && d == 29 && !leap))
        return 0;
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400;
    int yoe = y - era * 400;
    int doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    *out = (int64_t)era * 146097 + doe - 719468;
    return 1;
}

/* hh:mm[:ss] at s into seconds since 00:00. */
static int clock_at(const char *s, int with_seconds, int64_t *out)
{
    int h, mi, se = 0;
    if (!two(s, &h) || s[2] != ':' || !two(s + 3, &mi) ||
        (with_seconds && (s[5] != ':' || !two(s + 6, &se))) || h > 23 || mi > 59 || se > 59)
        return 0;
    *out = h * 3600 + mi * 60 + se;
    return 1;
}

#define NS 1000000000LL

/* YYYY-MM-DD (K_DATE), YYYY-MM-DDThh:mm:ssZ (K_DATETIME) or hh:mm (K_TIME)
 * into nanoseconds. */
static int read_when(int kind, const char *s, size_t n, int64_t *out)
{
    int64_t day = 0, sec = 0;
    if (kind == K_TIME)
        return n == 5 && clock_at(s, 0, &sec) ? (*out = sec * NS, 1) : 0;
    int c, y, m, d;
    if (n != (kind == K_DATE ? 10u : 20u) || !two(s, &c) || !two(s + 2, &y) || s[4] != '-' ||
        !two(s + 5, &m) || s[7] != '-' || !two(s + 8, &d) || !day_number(c * 100 + y, m, d, &day))
        return 0;
    if (kind == K_DATETIME && (s[10] != 'T' || !clock_at(s + 11, 1, &sec) || s[19] != 'Z'))
        return 0;
    *out = (day * 86400 + sec) * NS;
    return 1;
}

/* Appends a decoded cell s[0..n) to c. */
static int put_value(column *c, const char *s, size_t n)
{
    int64_t v = INT64_MIN;
    double f;
    switch (c->kind) {
    case K_COUNT:
    case K_INT: {
        unsigned char na = !read_int(s, n, &v);
        if (na)
            v = 0;
        return vec_put(&c->values, &v, 8) || vec_put(&c->na, &na, 1);
    }
    case K_FLOAT:
        if (!read_float(s, n, &f))
            f = Py_NAN;
        return vec_put(&c->values, &f, 8);
    default:
        if (!read_when(c->kind, s, n, &v))
            v = INT64_MIN;
        return vec_put(&c->values, &v, 8);
    }
}

/* Appends the cell s[0..n) to column i: decoded, or for text None when
 * empty, else its str. */
static int put_cell(pa_table *t, size_t i, const char *s, size_t n)
{
    column *c = &t->cols[i];
    if (c->kind != K_TEXT)
        return put_value(c, s, n);
    PyObject *v = Py_None, **last = &c->last;
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
    return PyList_Append(c->list, v);
}

/* Cuts the rows of rows[0..len) into the columns. Returns 0, or -1. */
static int cut_rows(pa_table *t, const char *rows, size_t len)
{
    const char *p = rows, *end = p + len;
    while (p < end) {
        for (size_t i = 0; i < t->ncols; i++) {
            const char *e = memchr(p, i + 1 < t->ncols ? '\t' : '\n', (size_t)(end - p));
            if (!e) {
                PyErr_SetString(PyExc_RuntimeError, "a TSV row with too few cells");
                return -1;
            }
            if (put_cell(t, i, p, (size_t)(e - p)) != 0)
                return -1;
            p = e + 1;
        }
    }
    return 0;
}

int pa_table_cut(PyObject *self, const char *rows, size_t len)
{
    return cut_rows((pa_table *)self, rows, len);
}

const adexp_select *pa_table_select(PyObject *self, int *validate)
{
    *validate = ((pa_table *)self)->validate;
    return ((pa_table *)self)->sel;
}

/* Appends w[0..wlen) as the last cell of each row in t->buf to out. */
static int put_with_cell(const pa_table *t, adexp_buf *out, const char *w, size_t wlen)
{
    const char *p = t->buf.data, *end = p + t->buf.len;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e || !adexp_buf_put(out, p, (size_t)(e - p)) || !adexp_buf_put(out, "\t", 1) ||
            !adexp_buf_put(out, w, wlen) || !adexp_buf_put(out, "\n", 1))
            return -1;
        p = e + 1;
    }
    return 0;
}

int pa_table_rows(PyObject *self, const adexp_msg *m, const char *source, adexp_buf *out)
{
    pa_table *t = (pa_table *)self;
    if (!adexp_select_keeps(t->sel, m))
        return 0;
    if (!t->validate)
        return adexp_csv_write(out, m, source, t->sel, '\t') == ADEXP_OK ? 1 : -1;
    t->buf.len = 0;
    if (adexp_csv_write(&t->buf, m, source, t->sel, '\t') != ADEXP_OK)
        return -1;
    adexp_status st = adexp_validate(m, &t->arena, &t->findings);
    size_t wlen = 0;
    char *w = st == ADEXP_OK ? batch_warnings_cell(&t->findings, &wlen) : NULL;
    adexp_arena_reset(&t->arena);
    int rc = w && put_with_cell(t, out, w, wlen) == 0 ? 1 : -1;
    free(w);
    return rc;
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
    const char *source = source_of(t, m->source);
    if (!source)
        return -1;
    t->rows.len = 0;
    int rc = pa_table_rows((PyObject *)t, &m->msg, source, &t->rows);
    if (rc < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return rc ? cut_rows(t, t->rows.data, t->rows.len) : 0;
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

static PyObject *vec_bytes(const vec *v)
{
    return PyByteArray_FromStringAndSize(v->p ? v->p : "", (Py_ssize_t)v->len);
}

/* A column's cells as take() gives them. */
static PyObject *column_cells(const column *c)
{
    if (c->kind == K_TEXT) {
        Py_INCREF(c->list);
        return c->list;
    }
    int has_na = c->kind == K_COUNT || c->kind == K_INT;
    PyObject *values = vec_bytes(&c->values);
    PyObject *na = !values ? NULL : has_na ? vec_bytes(&c->na) : (Py_INCREF(Py_None), Py_None);
    PyObject *pair = na ? PyTuple_Pack(2, values, na) : NULL;
    Py_XDECREF(values);
    Py_XDECREF(na);
    return pair;
}

/* The columns' cells so far, handed over (the table starts empty again). */
static PyObject *table_take(PyObject *self, PyObject *unused)
{
    (void)unused;
    pa_table *t = (pa_table *)self;
    PyObject *cells = PyList_New((Py_ssize_t)t->ncols);
    for (size_t i = 0; cells && i < t->ncols; i++) {
        PyObject *c = column_cells(&t->cols[i]);
        if (!c)
            Py_CLEAR(cells);
        else
            PyList_SET_ITEM(cells, (Py_ssize_t)i, c);
    }
    if (!cells)
        return NULL;
    for (size_t i = 0; i < t->ncols; i++)
        column_free(&t->cols[i]);
    if (columns_start(t) != 0) {
        Py_DECREF(cells);
        return NULL;
    }
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
    {"add_files", (PyCFunction)(void (*)(void))pa_table_add_files, METH_VARARGS | METH_KEYWORDS,
     "add_files(inputs, jobs=None, *, errors='raise', include=None, messages=None,\n"
     "**limits) -> int: the CSV rows of every message of the inputs (as\n"
     "parse_files takes them) whose title the selection keeps, written by the\n"
     "batch and cut into the columns without a Message made. A failed input\n"
     "raises adexp.FileError (nothing of the run is added), or with\n"
     "errors='skip' is passed over. messages: the rows of the first so many\n"
     "messages only. Returns the number of messages parsed."},
    {"take", table_take, METH_NOARGS,
     "take() -> list: the cells of each column so far: for text a list of str\n"
     "(None: empty); for the others (values, na): a bytearray of 8 bytes a\n"
     "row (int64, float64 with NaN, or int64 nanoseconds with INT64_MIN for\n"
     "NaT) and for count and int one of 1 byte a row, 1 where NA. The table\n"
     "is empty afterwards."},
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
