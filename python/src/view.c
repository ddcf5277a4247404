/* Message.view: what adexp-parse --format view writes for the message
 * (lib/out/view_json.c, the schema of doc/json.md's "Typed view"), raw
 * values with their decoded companions (rfl_ft, eto_utc, ...), as
 * json.loads gives it, without the members the Message has as attributes
 * (source, index, offset, errors, envelope). One writer, so that the view
 * and its companions follow the JSON view in one place. */
#include "pyadexp.h"

static PyObject *json_loads;   /* json.loads, imported on the first view */

static const char *const not_in_view[] = {"source", "index", "offset", "errors", "envelope"};

PyObject *pa_view_dict(const adexp_msg *m)
{
    if (!json_loads) {
        PyObject *json = PyImport_ImportModule("json");
        json_loads = json ? PyObject_GetAttrString(json, "loads") : NULL;
        Py_XDECREF(json);
        if (!json_loads)
            return NULL;
    }
    adexp_buf b;
    adexp_buf_init(&b, NULL);
    if (adexp_view_json_write(&b, m, "", NULL) != ADEXP_OK) {
        adexp_buf_free(&b);
        return PyErr_NoMemory();
    }
    PyObject *line = PyBytes_FromStringAndSize(b.data, (Py_ssize_t)b.len);
    adexp_buf_free(&b);
    PyObject *d = line ? PyObject_CallOneArg(json_loads, line) : NULL;
    Py_XDECREF(line);
    for (size_t i = 0; d && i < sizeof not_in_view / sizeof *not_in_view; i++)
        if (PyDict_DelItemString(d, not_in_view[i]) != 0)
            PyErr_Clear();     /* not written for this message */
    return d;
}
