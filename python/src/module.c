/* adexp._adexp: the extension module over libadexp. parse() lives here with
 * the module's set-up; the types and the other entry points have their own
 * files (see pyadexp.h). */
#include "pyadexp.h"

#include <stdlib.h>

/* Inputs shorter than this are parsed without letting the GIL go: the
 * hand-over would cost more than the parse. */
#define RELEASE_GIL_FROM 16384

/* A bytes object holding data's bytes: data itself when it is bytes. */
static PyObject *bytes_of(PyObject *data)
{
    if (PyBytes_Check(data)) {
        Py_INCREF(data);
        return data;
    }
    if (PyUnicode_Check(data))
        return PyUnicode_AsUTF8String(data);
    if (PyObject_CheckBuffer(data))
        return PyBytes_FromObject(data);
    return PyErr_Format(PyExc_TypeError, "parse() data must be bytes or str, not %.100s",
                        Py_TYPE(data)->tp_name);
}

static PyObject *messages_of(const pa_msgs *r, PyObject *owner, PyObject *source)
{
    PyObject *list = PyList_New((Py_ssize_t)r->n);
    for (size_t i = 0; list && i < r->n; i++) {
        PyObject *m = pa_message_new(&r->v[i], owner, source);
        if (!m)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, m);
    }
    return list;
}

static PyObject *parse_bytes(PyObject *bytes, PyObject *source, const adexp_options *o)
{
    adexp_parser *p = pa_parser_get(o);
    if (!p)
        return NULL;
    const char *data = PyBytes_AS_STRING(bytes);
    size_t len = (size_t)PyBytes_GET_SIZE(bytes);
    pa_msgs r = {NULL, 0, 0};
    adexp_arena arena;
    pa_arena_init(&arena, len);
    int rc;
    if (len >= RELEASE_GIL_FROM) {
        Py_BEGIN_ALLOW_THREADS
        rc = pa_parse_all(p, data, len, &arena, &r);
        Py_END_ALLOW_THREADS
    } else {
        rc = pa_parse_all(p, data, len, &arena, &r);
    }
    pa_parser_put(p, o);
    if (rc != 0) {
        adexp_arena_free(&arena);
        return PyErr_NoMemory();
    }
    PyObject *owner = pa_arena_new(&arena, bytes), *list = NULL;
    if (owner)
        list = messages_of(&r, owner, source);
    Py_XDECREF(owner);
    pa_msgs_free(&r);
    return list;
}

PyObject *pa_parse(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    PyObject *data, *source = NULL, *kw = NULL, *owner = NULL, *r = NULL;
    adexp_options o;
    if (!PyArg_ParseTuple(args, "O:parse", &data))
        return NULL;
    if (!(kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New()))
        return NULL;
    source = PyDict_GetItemString(kw, "source");
    Py_XINCREF(source);
    if (source)
        PyDict_DelItemString(kw, "source");
    if (source && !PyUnicode_Check(source)) {
        PyErr_Format(PyExc_TypeError, "parse() source must be a str, not %.100s",
                     Py_TYPE(source)->tp_name);
        goto done;
    }
    if (!source && !(source = PyUnicode_FromString("-")))
        goto done;
    if (pa_options_take(kw, &o) || pa_no_more_kwargs(kw, "parse") ||
        !(owner = bytes_of(data)))
        goto done;
    r = parse_bytes(owner, source, &o);
done:
    Py_XDECREF(owner);
    Py_XDECREF(source);
    Py_DECREF(kw);
    return r;
}

#define LIMITS_DOC \
    "Limits, as keywords (defaults as in adexp-parse): max_depth, max_fields,\n" \
    "max_list_items, max_keyword_len, max_errors, max_message_size; and\n" \
    "dictionary=adexp.load_dictionary(paths) (adexp-parse --dictionary).\n"

static PyMethodDef module_methods[] = {
    {"parse", (PyCFunction)(void (*)(void))pa_parse, METH_VARARGS | METH_KEYWORDS,
     "parse(data, *, source='-', **limits) -> list[Message]\n\n"
     "Every message of data (bytes, or str taken as UTF-8), in order. Bad\n"
     "input never raises: each message carries its errors. source names\n"
     "the input in Message.source and to_dict() ('-' as for standard input).\n"
     LIMITS_DOC},
    {"_parse_files", (PyCFunction)(void (*)(void))pa_parse_files, METH_VARARGS | METH_KEYWORDS,
     "_parse_files(inputs, jobs=None, *, errors='raise', include=None, **limits)\n"
     "-> Iterator[Message]\n\n"
     "adexp.parse_files below its argument checks: inputs is a list of\n"
     "('path', path), ('fd', name, fd) and ('buffer', name, bytes).\n" LIMITS_DOC},
    {"_stop_all", pa_files_stop_all, METH_NOARGS,
     "_stop_all(): stop the batches of parse_files iterators still alive (at exit)."},
    {"_next_cut", pa_next_cut, METH_VARARGS,
     "_next_cut(data, at, envelope=True) -> int: the first message start at or\n"
     "after at, or len(data) (adexp_batch_next_cut)."},
    {"_count_before", (PyCFunction)(void (*)(void))pa_count_before, METH_VARARGS | METH_KEYWORDS,
     "_count_before(data, cut, **limits) -> (count, next): the messages of data\n"
     "that start before cut, and where the first at or after it starts\n"
     "(len(data) when none does)."},
    {"_line_breaks", pa_line_breaks, METH_VARARGS,
     "_line_breaks(data, end) -> (breaks, bol): the line breaks of data[:end] (LF,\n"
     "CRLF, lone CR) and where its last line starts (0 when none ends there)."},
    {"_is_packed", pa_is_packed, METH_O,
     "_is_packed(head) -> bool: whether an input starting with head is compressed\n"
     "or an archive (adexp_batch_is_packed)."},
    {NULL, NULL, 0, NULL},
};

static void module_free(void *m)
{
    (void)m;
    pa_text_clear();
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "adexp._adexp",
    .m_doc = "The C extension of the adexp package: libadexp for Python.",
    .m_size = -1,
    .m_methods = module_methods,
    .m_free = module_free,
};

static int add_type(PyObject *m, PyTypeObject *t, const char *name)
{
    if (PyType_Ready(t) < 0)
        return -1;
    Py_INCREF(t);
    if (name && PyModule_AddObject(m, name, (PyObject *)t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__adexp(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (pa_keys_init() || pa_error_type_init() ||
        add_type(m, &pa_MessageType, "Message") || add_type(m, &pa_FieldType, "Field") ||
        add_type(m, pa_ErrorType, "Error") || add_type(m, &pa_ArenaType, NULL) ||
        add_type(m, &pa_FilesType, NULL) ||
        add_type(m, &pa_TableType, "_Table") || add_type(m, &pa_DictionaryType, "_Dictionary"))
        goto fail;
    pa_FileError = PyErr_NewExceptionWithDoc(
        "adexp.FileError",
        "A file that cannot be read, or whose content adexp-parse refuses\n"
        "(empty, binary, not ADEXP). An OSError: errno (0 when refused),\n"
        "strerror (the reason) and filename (the path as given).",
        PyExc_OSError, NULL);
    if (!pa_FileError || PyModule_AddObject(m, "FileError", pa_FileError) < 0)
        goto fail;
    Py_INCREF(pa_FileError);
    if (PyModule_AddStringConstant(m, "LIBADEXP_VERSION", ADEXP_VERSION) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
