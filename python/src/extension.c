/* adexp._adexp._Dictionary: the field dictionary extended by files, as
 * adexp-parse --dictionary FILE (repeatable) extends it. Parsers, the
 * Files and Iter objects and the tables keep only its pointer, some on
 * other threads; so a loaded dictionary is never freed: each one is held
 * by the module's list below for the life of the process (adexp/tables.py
 * loads each set of files once). */
#include "pyadexp.h"

typedef struct pa_dictionary {
    PyObject_HEAD
    adexp_dictionary *d;
} pa_dictionary;

static PyObject *loaded;       /* every _Dictionary made: never freed */

/* _Dictionary(paths): each file on top of the ones before it. A bad file
 * is a ValueError "PATH:LINE:COLUMN: message"; one that cannot be read an
 * adexp.FileError. */
static PyObject *dictionary_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *paths, *seq, *self = NULL;
    static char *kwlist[] = {"paths", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:_Dictionary", kwlist, &paths))
        return NULL;
    if (!(seq = PySequence_Fast(paths, "paths must be a list of paths")))
        return NULL;
    adexp_dictionary *d = NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *path = PySequence_Fast_GET_ITEM(seq, i), *b = NULL;
        if (!PyUnicode_FSConverter(path, &b))
            goto fail;
        adexp_dict_error err;
        adexp_dictionary *next = adexp_dict_load_file(d, PyBytes_AS_STRING(b), &err);
        if (!next) {
            if (err.line)
                PyErr_Format(PyExc_ValueError, "%s:%u:%u: %s", PyBytes_AS_STRING(b), err.line,
                             err.column, err.message);
            else
                pa_file_error(0, err.message, path);
            Py_DECREF(b);
            goto fail;
        }
        Py_DECREF(b);
        adexp_dict_free(d);
        d = next;
    }
    if (!loaded && !(loaded = PyList_New(0)))
        goto fail;
    pa_dictionary *o = (pa_dictionary *)type->tp_alloc(type, 0);
    if (!o)
        goto fail;
    o->d = d;
    self = (PyObject *)o;
    if (PyList_Append(loaded, self) != 0) {
        o->d = NULL;           /* freed below: no parser has seen it */
        Py_CLEAR(self);
        goto fail;
    }
    Py_DECREF(seq);
    return self;
fail:
    adexp_dict_free(d);
    Py_DECREF(seq);
    return NULL;
}

static void dictionary_dealloc(PyObject *self)
{
    /* reached only when the list above could not take it */
    adexp_dict_free(((pa_dictionary *)self)->d);
    Py_TYPE(self)->tp_free(self);
}

PyTypeObject pa_DictionaryType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp._adexp._Dictionary",
    .tp_basicsize = sizeof(pa_dictionary),
    .tp_dealloc = dictionary_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "_Dictionary(paths): the field dictionary extended by each file of\n"
              "paths in turn, as adexp-parse --dictionary FILE ... extends it.\n"
              "Kept for the life of the process.",
    .tp_new = dictionary_new,
};

int pa_dictionary_of(PyObject *v, const adexp_dictionary **out)
{
    if (v == Py_None) {
        *out = NULL;
        return 0;
    }
    if (!PyObject_TypeCheck(v, &pa_DictionaryType)) {
        PyErr_Format(PyExc_TypeError, "dictionary must be an adexp dictionary, not %.100s",
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    *out = ((pa_dictionary *)v)->d;
    return 0;
}
