/* Slices of the input to str, exactly as json.loads reads the JSON writer's
 * strings (doc/json.md): folded values, valid UTF-8 decoded, and
 * every byte that is not part of valid UTF-8 turned into U+DCXX (the
 * writer's \udcXX, Python's "surrogateescape"). */
#include "pyadexp.h"

#include <stdlib.h>
#include <string.h>

pa_keys pa_k;

int pa_keys_init(void)
{
#define KEY(k) if (!(pa_k.k = PyUnicode_InternFromString(#k))) return -1
    KEY(source); KEY(index); KEY(offset); KEY(title); KEY(fields);
    KEY(errors); KEY(name); KEY(value); KEY(items); KEY(unknown);
    KEY(code); KEY(message); KEY(line); KEY(column); KEY(misplaced);
#undef KEY
    return 0;
}

/* Valid UTF-8 decoded, each other byte as U+DCXX (surrogateescape): the
 * JSON writer's \\udcXX. Python's rule of valid UTF-8 is the library's
 * (utf8.h). */
static PyObject *decode(const char *s, size_t n)
{
    if (n > PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "surrogateescape");
}

PyObject *pa_str(adexp_slice s, int fold)
{
    if (!fold || s.len == 0)
        return decode(s.ptr ? s.ptr : "", s.len);
    char small[256];
    size_t n = adexp_fold_copy(s, small, sizeof small);
    if (n < sizeof small)
        return decode(small, n);
    char *big = malloc(n + 1);
    if (!big)
        return PyErr_NoMemory();
    adexp_fold_copy(s, big, n + 1);
    PyObject *r = decode(big, n);
    free(big);
    return r;
}

/* Dictionary keywords repeat in every message: their str is made once and
 * reused when the bytes are the same. Only touched with the GIL held. */
#define KW_CACHE 1024
static PyObject *kw_cache[KW_CACHE];

PyObject *pa_keyword(const adexp_field *f)
{
    if (f->dict_id == ADEXP_DICT_NONE)
        return pa_str(f->keyword, 1);
    PyObject **slot = &kw_cache[f->dict_id % KW_CACHE];
    PyObject *c = *slot;
    if (c && (size_t)PyUnicode_GET_LENGTH(c) == f->keyword.len &&
        memcmp(PyUnicode_1BYTE_DATA(c), f->keyword.ptr, f->keyword.len) == 0) {
        Py_INCREF(c);
        return c;
    }
    PyObject *s = pa_str(f->keyword, 1);
    /* Cache only plain ASCII keywords that need no folding: their bytes
     * are their characters, which is what the comparison above reads. */
    if (s && PyUnicode_IS_ASCII(s) &&
        (size_t)PyUnicode_GET_LENGTH(s) == f->keyword.len) {
        Py_XDECREF(*slot);
        Py_INCREF(s);
        *slot = s;
    }
    return s;
}

void pa_text_clear(void)
{
    for (size_t i = 0; i < KW_CACHE; i++)
        Py_CLEAR(kw_cache[i]);
}
