/* adexp.Message: one parsed message. It holds a
 * reference to the arena of its tree and the bytes the tree points into. */
#include "pyadexp.h"

PyObject *pa_message_new(const adexp_msg *msg, PyObject *owner, PyObject *source)
{
    pa_message *m = PyObject_New(pa_message, &pa_MessageType);
    if (!m)
        return NULL;
    m->msg = *msg;
    Py_INCREF(owner);
    m->owner = owner;
    Py_INCREF(source);
    m->source = source;
    m->fields = NULL;
    return (PyObject *)m;
}

static void message_dealloc(PyObject *self)
{
    pa_message *m = (pa_message *)self;
    Py_XDECREF(m->fields);
    Py_XDECREF(m->source);
    Py_XDECREF(m->owner);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *get_title(PyObject *self, void *c)
{
    (void)c;
    adexp_slice t = ((pa_message *)self)->msg.view.title;
    if (!t.ptr)
        Py_RETURN_NONE;
    return pa_str(t, 1);
}

static PyObject *get_index(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(((pa_message *)self)->msg.index);
}

static PyObject *get_offset(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(((pa_message *)self)->msg.offset);
}

static PyObject *get_length(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(((pa_message *)self)->msg.length);
}

static PyObject *get_source(PyObject *self, void *c)
{
    (void)c;
    PyObject *s = ((pa_message *)self)->source;
    Py_INCREF(s);
    return s;
}

static PyObject *get_errors(PyObject *self, void *c)
{
    (void)c;
    return pa_errors_list(&((pa_message *)self)->msg);
}

static PyObject *get_error_count(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromSize_t(((pa_message *)self)->msg.nerrors_total);
}

static PyObject *get_ok(PyObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(((pa_message *)self)->msg.nerrors_total == 0);
}

static PyObject *get_fields(PyObject *self, void *c)
{
    (void)c;
    pa_message *m = (pa_message *)self;
    if (!m->fields && !(m->fields = pa_field_list(m->owner, m->msg.fields)))
        return NULL;
    Py_INCREF(m->fields);
    return m->fields;
}

static PyObject *get_envelope(PyObject *self, void *c)
{
    (void)c;
    return pa_envelope_dict(&((pa_message *)self)->msg.envelope);
}

static PyObject *get_view(PyObject *self, void *c)
{
    (void)c;
    return pa_view_dict(&((pa_message *)self)->msg);
}

static PyGetSetDef message_getset[] = {
    {"title", get_title, NULL, "The message's title (IFPL, ACK ...), or None.", NULL},
    {"index", get_index, NULL, "Position of the message in its input, from 0.", NULL},
    {"offset", get_offset, NULL, "Byte offset of the message in its input.", NULL},
    {"length", get_length, NULL, "Length of the message in bytes.", NULL},
    {"source", get_source, NULL, "Name of the input: the path as given, or parse()'s source.", NULL},
    {"errors", get_errors, NULL, "List of adexp.Error (code, message, line, column, offset).", NULL},
    {"error_count", get_error_count, NULL, "Number of errors, including those past max_errors that were not stored.", NULL},
    {"ok", get_ok, NULL, "True when the message has no error.", NULL},
    {"fields", get_fields, NULL, "Top-level fields in order, TITLE first (list of adexp.Field).", NULL},
    {"view", get_view, NULL, "The typed view of the fields people use most, as a dict.", NULL},
    {"envelope", get_envelope, NULL, "The AFTN envelope the message came in, as a dict (form, transmission_id, priority, addressees, filing_time, originator, text), or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *message_to_dict(PyObject *self, PyObject *unused)
{
    (void)unused;
    pa_message *m = (pa_message *)self;
    return pa_message_dict(&m->msg, m->source);
}

static PyObject *key_arg(PyObject *key)
{
    if (!PyUnicode_Check(key)) {
        PyErr_Format(PyExc_TypeError, "field keyword must be a str, not %.100s",
                     Py_TYPE(key)->tp_name);
        return NULL;
    }
    return key;
}

static PyObject *message_subscript(PyObject *self, PyObject *key)
{
    if (!key_arg(key))
        return NULL;
    PyObject *v = pa_first_value(((pa_message *)self)->msg.fields, key);
    if (!v && !PyErr_Occurred())
        PyErr_SetObject(PyExc_KeyError, key);
    return v;
}

static PyObject *message_get(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    if (n < 1 || n > 2) {
        PyErr_SetString(PyExc_TypeError, "get() takes a keyword and an optional default");
        return NULL;
    }
    if (!key_arg(args[0]))
        return NULL;
    PyObject *v = pa_first_value(((pa_message *)self)->msg.fields, args[0]);
    if (v || PyErr_Occurred())
        return v;
    v = n == 2 ? args[1] : Py_None;
    Py_INCREF(v);
    return v;
}

static int message_contains(PyObject *self, PyObject *key)
{
    if (!key_arg(key))
        return -1;
    PyObject *v = pa_first_value(((pa_message *)self)->msg.fields, key);
    if (!v)
        return PyErr_Occurred() ? -1 : 0;
    Py_DECREF(v);
    return 1;
}

static PyMethodDef message_methods[] = {
    {"to_dict", message_to_dict, METH_NOARGS,
     "to_dict() -> dict\n\nThe message as json.loads reads adexp-parse's JSON line for it:\n"
     "source, index, offset, title, fields (nested, values folded) and errors."},
    {"get", (PyCFunction)(void (*)(void))message_get, METH_FASTCALL,
     "get(keyword, default=None) -> str | None\n\n"
     "The folded value of the first top-level basic field named keyword, or default."},
    {NULL, NULL, 0, NULL},
};

static PyObject *message_repr(PyObject *self)
{
    pa_message *m = (pa_message *)self;
    PyObject *title = get_title(self, NULL);
    if (!title)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("<adexp.Message %R index=%zu source=%R errors=%zu>",
                                       title, m->msg.index, m->source,
                                       m->msg.nerrors_total);
    Py_DECREF(title);
    return r;
}

static PyMappingMethods message_mapping = {
    .mp_subscript = message_subscript,
};

static PySequenceMethods message_sequence = {
    .sq_contains = message_contains,
};

PyTypeObject pa_MessageType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp.Message",
    .tp_basicsize = sizeof(pa_message),
    .tp_dealloc = message_dealloc,
    .tp_repr = message_repr,
    .tp_as_mapping = &message_mapping,
    .tp_as_sequence = &message_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One ADEXP message: title, index, offset, source, errors, fields, view.\n\n"
              "msg[\"ARCID\"] is the folded value of the first top-level basic field\n"
              "ARCID (KeyError if there is none); msg.get(\"ARCID\") gives None instead.\n"
              "Messages are made by adexp.parse, adexp.iter_file and adexp.parse_files.",
    .tp_methods = message_methods,
    .tp_getset = message_getset,
};
