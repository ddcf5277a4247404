/* adexp.Field: one node of a message's tree, made when asked for. It keeps
 * the _Arena of the tree alive (and so the bytes), not the Message: the
 * Message caches its Field list, and a cycle would never be freed. */
#include "pyadexp.h"

#include <string.h>

static PyObject *field_new(PyObject *owner, const adexp_field *f)
{
    pa_field *o = PyObject_New(pa_field, &pa_FieldType);
    if (!o)
        return NULL;
    Py_INCREF(owner);
    o->owner = owner;
    o->f = f;
    return (PyObject *)o;
}

PyObject *pa_field_list(PyObject *owner, const adexp_field *first)
{
    PyObject *list = PyList_New(0);
    for (const adexp_field *f = first; list && f; f = f->next) {
        PyObject *o = field_new(owner, f);
        if (!o || PyList_Append(list, o) != 0) {
            Py_XDECREF(o);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(o);
    }
    return list;
}

static int keyword_is(const adexp_field *f, const char *key, Py_ssize_t n)
{
    return f->keyword.len == (size_t)n && memcmp(f->keyword.ptr, key, (size_t)n) == 0;
}

PyObject *pa_first_value(const adexp_field *first, PyObject *key)
{
    Py_ssize_t n;
    const char *k = PyUnicode_AsUTF8AndSize(key, &n);
    if (!k)
        return NULL;
    for (const adexp_field *f = first; f; f = f->next)
        if (f->kind == ADEXP_BASIC && keyword_is(f, k, n))
            return pa_str(f->value, 1);
    return NULL;
}

static void field_dealloc(PyObject *self)
{
    Py_XDECREF(((pa_field *)self)->owner);
    Py_TYPE(self)->tp_free(self);
}

#define F(self) (((pa_field *)(self))->f)

static PyObject *get_keyword(PyObject *self, void *c)
{
    (void)c;
    return pa_keyword(F(self));
}

/* As in the JSON: a basic field's value; a compound's only when plain text
 * was given; None for lists and compounds of subfields only. */
static PyObject *get_value(PyObject *self, void *c)
{
    (void)c;
    const adexp_field *f = F(self);
    if (f->kind == ADEXP_BASIC || (f->kind == ADEXP_COMPOUND && f->value.len > 0))
        return pa_str(f->value, 1);
    Py_RETURN_NONE;
}

static PyObject *get_raw(PyObject *self, void *c)
{
    (void)c;
    const adexp_field *f = F(self);
    return PyBytes_FromStringAndSize(f->value.ptr ? f->value.ptr : "",
                                     (Py_ssize_t)f->value.len);
}

static PyObject *get_kind(PyObject *self, void *c)
{
    (void)c;
    static const char *const names[] = {"basic", "compound", "list"};
    unsigned k = F(self)->kind;
    return PyUnicode_FromString(k < 3 ? names[k] : "basic");
}

static PyObject *get_children(PyObject *self, void *c)
{
    (void)c;
    return pa_field_list(((pa_field *)self)->owner, F(self)->child);
}

static PyObject *get_offset(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(F(self)->offset);
}

static PyObject *get_unknown(PyObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(F(self)->flags & ADEXP_FIELD_UNKNOWN);
}

static PyObject *get_text(PyObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(F(self)->flags & ADEXP_FIELD_TEXT);
}

static PyGetSetDef field_getset[] = {
    {"keyword", get_keyword, NULL, "The keyword (the list's name for a list).", NULL},
    {"value", get_value, NULL, "The folded value (str), or None for a list or a compound of subfields only.", NULL},
    {"raw", get_raw, NULL, "The value's bytes as in the input, right-trimmed, unfolded.", NULL},
    {"kind", get_kind, NULL, "'basic', 'compound' or 'list'.", NULL},
    {"children", get_children, NULL, "Subfields of a compound or items of a list (list of Field).", NULL},
    {"offset", get_offset, NULL, "Byte offset of the field's '-' in the input.", NULL},
    {"unknown", get_unknown, NULL, "True when the dictionary does not know the keyword.", NULL},
    {"text", get_text, NULL, "True when the value was read as ICAO text (may hold '-').", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *field_to_dict(PyObject *self, PyObject *unused)
{
    (void)unused;
    return pa_field_dict(F(self));
}

static PyObject *field_subscript(PyObject *self, PyObject *key)
{
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "subfield keyword must be a str, not %.100s",
                     Py_TYPE(key)->tp_name);
        return NULL;
    }
    PyObject *v = pa_first_value(F(self)->child, key);
    if (!v && !PyErr_Occurred())
        PyErr_SetObject(PyExc_KeyError, key);
    return v;
}

static PyMethodDef field_methods[] = {
    {"to_dict", field_to_dict, METH_NOARGS,
     "to_dict() -> dict\n\nThe field as in the JSON output: name, value, fields or items, unknown."},
    {NULL, NULL, 0, NULL},
};

static PyObject *field_repr(PyObject *self)
{
    PyObject *k = get_keyword(self, NULL), *v = k ? get_value(self, NULL) : NULL;
    PyObject *r = NULL;
    if (v)
        r = PyUnicode_FromFormat("<adexp.Field %U %s value=%R children=%u>", k,
                                 F(self)->kind == ADEXP_LIST ? "list"
                                 : F(self)->kind == ADEXP_COMPOUND ? "compound" : "basic",
                                 v, (unsigned)F(self)->nchildren);
    Py_XDECREF(k);
    Py_XDECREF(v);
    return r;
}

static PyMappingMethods field_mapping = {
    .mp_subscript = field_subscript,
};

PyTypeObject pa_FieldType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp.Field",
    .tp_basicsize = sizeof(pa_field),
    .tp_dealloc = field_dealloc,
    .tp_repr = field_repr,
    .tp_as_mapping = &field_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One field of a message: keyword, value, kind, children, offset, unknown.\n\n"
              "field[\"PTID\"] is the folded value of the first basic subfield PTID.",
    .tp_methods = field_methods,
    .tp_getset = field_getset,
};
