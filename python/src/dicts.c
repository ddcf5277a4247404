/* A message's tree as dicts and lists, key for key what json.loads gives
 * for the JSON writer's line (lib/json.c, doc/json.md), built
 * straight from the tree: no JSON is written or read. */
#include "pyadexp.h"

static int set(PyObject *d, PyObject *k, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItem(d, k, v);
    Py_DECREF(v);
    return rc;
}

/* The flags the JSON writes as "key": true. A new flag is one more line. */
static const struct {
    unsigned flag;
    PyObject **key;
} field_flags[] = {
    {ADEXP_FIELD_UNKNOWN, &pa_k.unknown},
    {ADEXP_FIELD_MISPLACED, &pa_k.misplaced},
};

static Py_ssize_t count(const adexp_field *first)
{
    Py_ssize_t n = 0;
    for (const adexp_field *f = first; f; f = f->next)
        n++;
    return n;
}

/* The dicts of first and its siblings; n: how many there are, or -1. A
 * parent's nchildren saves the walk that counts them (its first loads
 * are the misses of lines a worker wrote), and is checked on the way. */
static PyObject *children_list(const adexp_field *first, Py_ssize_t n)
{
    if (n < 0)
        n = count(first);
    PyObject *list = PyList_New(n);
    Py_ssize_t i = 0;
    const adexp_field *f = first;
    for (; list && f && i < n; f = f->next, i++) {
        PyObject *d = pa_field_dict(f);
        if (!d)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, d);
    }
    if (list && (f || i < n)) {    /* n was not their number */
        Py_DECREF(list);
        return children_list(first, count(first));
    }
    return list;
}

PyObject *pa_field_dict(const adexp_field *f)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    int list = f->kind == ADEXP_LIST;
    int sub = f->kind == ADEXP_COMPOUND && (f->child || f->value.len == 0);
    int ok = set(d, pa_k.name, pa_keyword(f)) == 0;
    if (ok && !list && (f->kind == ADEXP_BASIC || f->value.len > 0))
        ok = set(d, pa_k.value, pa_str(f->value, 1)) == 0;
    if (ok && (list || sub))
        ok = set(d, list ? pa_k.items : pa_k.fields, children_list(f->child, f->nchildren)) == 0;
    for (size_t i = 0; ok && i < sizeof field_flags / sizeof field_flags[0]; i++)
        if (f->flags & field_flags[i].flag)
            ok = PyDict_SetItem(d, *field_flags[i].key, Py_True) == 0;
    if (!ok)
        Py_CLEAR(d);
    return d;
}

static PyObject *error_dict(const adexp_error *e)
{
    PyObject *d = PyDict_New();
    if (d && (set(d, pa_k.code, PyUnicode_FromString(adexp_status_name(e->code))) ||
              set(d, pa_k.message, PyUnicode_FromString(e->message)) ||
              set(d, pa_k.line, PyLong_FromUnsignedLong(e->line)) ||
              set(d, pa_k.column, PyLong_FromUnsignedLong(e->column)) ||
              set(d, pa_k.offset, PyLong_FromSize_t(e->offset))))
        Py_CLEAR(d);
    return d;
}

static PyObject *error_dicts(const adexp_msg *m)
{
    PyObject *list = PyList_New((Py_ssize_t)m->nerrors);
    for (size_t i = 0; list && i < m->nerrors; i++) {
        PyObject *d = error_dict(&m->errors[i]);
        if (!d)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, d);
    }
    return list;
}

static PyObject *new_ref(PyObject *o)
{
    Py_INCREF(o);
    return o;
}

/* A part of the envelope: its str, or None where the envelope lacks it. */
static PyObject *part(adexp_slice s, int fold)
{
    return s.ptr ? pa_str(s, fold) : new_ref(Py_None);
}

/* The words of s (separated by spaces and line ends), as the JSON writer
 * writes the addressees. */
static PyObject *words(adexp_slice s)
{
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < s.len;) {
        while (i < s.len && (s.ptr[i] == ' ' || (s.ptr[i] >= '\t' && s.ptr[i] <= '\r')))
            i++;
        size_t k = i;
        while (i < s.len && !(s.ptr[i] == ' ' || (s.ptr[i] >= '\t' && s.ptr[i] <= '\r')))
            i++;
        if (k == i)
            continue;
        PyObject *w = pa_str((adexp_slice){s.ptr + k, i - k}, 0);
        if (!w || PyList_Append(list, w) != 0)
            Py_CLEAR(list);
        Py_XDECREF(w);
    }
    return list;
}

static int set_str(PyObject *d, const char *key, PyObject *v)
{
    int r = v ? PyDict_SetItemString(d, key, v) : -1;
    Py_XDECREF(v);
    return r;
}

PyObject *pa_envelope_dict(const adexp_envelope *env)
{
    if (!env->present)
        return new_ref(Py_None);
    PyObject *d = PyDict_New(), *text = PyList_New(0);
    for (int i = 0; text && i < 3; i++) {
        PyObject *t = env->text[i].ptr ? pa_str(env->text[i], 1) : NULL;
        if (env->text[i].ptr && (!t || PyList_Append(text, t) != 0))
            Py_CLEAR(text);
        Py_XDECREF(t);
    }
    const char *form = adexp_envelope_form_name(env->form);
    if (!d || set_str(d, "form", PyUnicode_FromString(form)) ||
        set_str(d, "transmission_id", part(env->transmission_id, 1)) ||
        set_str(d, "priority", part(env->priority, 1)) ||
        set_str(d, "addressees", words(env->addressees)) ||
        set_str(d, "filing_time", part(env->filing_time, 1)) ||
        set_str(d, "originator", part(env->originator, 1)) || set_str(d, "text", text)) {
        Py_XDECREF(d);
        return NULL;
    }
    return d;
}

PyObject *pa_message_dict(const adexp_msg *m, PyObject *source)
{
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    adexp_slice t = m->view.title;
    if (set(d, pa_k.source, new_ref(source)) ||
        set(d, pa_k.index, PyLong_FromSize_t(m->index)) ||
        set(d, pa_k.offset, PyLong_FromSize_t(m->offset)) ||
        set(d, pa_k.title, t.ptr ? pa_str(t, 1) : new_ref(Py_None)) ||
        set(d, pa_k.fields, children_list(m->fields, -1)) ||
        set(d, pa_k.errors, error_dicts(m)) ||
        (m->envelope.present && set_str(d, "envelope", pa_envelope_dict(&m->envelope))))
        Py_CLEAR(d);
    return d;
}

/* ---------------------------------------------------------------- Error */

PyTypeObject *pa_ErrorType;

static PyStructSequence_Field error_fields[] = {
    {"code", "Stable upper-case name of the error (LIST_UNCLOSED ...)."},
    {"message", "A short English sentence."},
    {"line", "1-based line in the input."},
    {"column", "1-based column, counted in bytes."},
    {"offset", "Byte offset in the input."},
    {NULL, NULL},
};

static PyStructSequence_Desc error_desc = {
    "adexp.Error",
    "One error of a message: code, message, line, column, offset.",
    error_fields,
    5,
};

int pa_error_type_init(void)
{
    pa_ErrorType = PyStructSequence_NewType(&error_desc);
    return pa_ErrorType ? 0 : -1;
}

static PyObject *error_object(const adexp_error *e)
{
    PyObject *o = PyStructSequence_New(pa_ErrorType);
    if (!o)
        return NULL;
    PyObject *v[5] = {
        PyUnicode_FromString(adexp_status_name(e->code)),
        PyUnicode_FromString(e->message),
        PyLong_FromUnsignedLong(e->line),
        PyLong_FromUnsignedLong(e->column),
        PyLong_FromSize_t(e->offset),
    };
    int ok = 1;
    for (int i = 0; i < 5; i++) {
        ok = ok && v[i];
        PyStructSequence_SetItem(o, i, v[i]);   /* NULL is safe: dealloc skips it */
    }
    if (!ok)
        Py_CLEAR(o);
    return o;
}

PyObject *pa_errors_list(const adexp_msg *m)
{
    PyObject *list = PyList_New((Py_ssize_t)m->nerrors);
    for (size_t i = 0; list && i < m->nerrors; i++) {
        PyObject *o = error_object(&m->errors[i]);
        if (!o)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, o);
    }
    return list;
}
