/* The parser's limits as keyword arguments: the same names as the fields
 * of adexp_options (and as the CLI's options), each checked here. */
#include "pyadexp.h"

#include <stddef.h>
#include <stdint.h>

typedef struct limit {
    const char *name;
    size_t offset;             /* in adexp_options */
    int is_size;               /* size_t, else uint32_t */
    unsigned long long min, max;   /* max 0: the type's */
} limit;

static const limit limits[] = {
    {"max_depth", offsetof(adexp_options, max_depth), 0, 1, ADEXP_MAX_DEPTH_LIMIT},
    {"max_fields", offsetof(adexp_options, max_fields), 0, 1, 0},
    {"max_list_items", offsetof(adexp_options, max_list_items), 0, 1, 0},
    {"max_keyword_len", offsetof(adexp_options, max_keyword_len), 0, 1, 0},
    /* The parser allocates room for all of them up front. */
    {"max_errors", offsetof(adexp_options, max_errors), 0, 1, 1u << 16},
    {"max_message_size", offsetof(adexp_options, max_message_size), 1, 1, 0},
};

static int set_limit(const limit *l, PyObject *v, adexp_options *o)
{
    if (!PyLong_Check(v) || PyBool_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s",
                     l->name, Py_TYPE(v)->tp_name);
        return -1;
    }
    unsigned long long max = l->max ? l->max : l->is_size ? SIZE_MAX : UINT32_MAX;
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (overflow || n < 0 || (unsigned long long)n < l->min ||
        (unsigned long long)n > max) {
        PyErr_Format(PyExc_ValueError, "%s must be between %llu and %llu",
                     l->name, l->min, max);
        return -1;
    }
    char *at = (char *)o + l->offset;
    if (l->is_size)
        *(size_t *)at = (size_t)n;
    else
        *(uint32_t *)at = (uint32_t)n;
    return 0;
}

int pa_options_take(PyObject *kwargs, adexp_options *o)
{
    *o = adexp_options_default();
    if (!kwargs)
        return 0;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        PyObject *v = PyDict_GetItemString(kwargs, limits[i].name);
        if (!v)
            continue;
        if (set_limit(&limits[i], v, o) != 0)
            return -1;
        if (PyDict_DelItemString(kwargs, limits[i].name) != 0)
            return -1;
    }
    /* not a limit, but read by the parser with them: --dictionary */
    PyObject *d = PyDict_GetItemString(kwargs, "dictionary");
    if (d && (pa_dictionary_of(d, &o->dictionary) != 0 ||
              PyDict_DelItemString(kwargs, "dictionary") != 0))
        return -1;
    return 0;
}

int pa_no_more_kwargs(PyObject *kwargs, const char *func)
{
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    if (kwargs && PyDict_Next(kwargs, &pos, &k, &v)) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R",
                     func, k);
        return -1;
    }
    return 0;
}
