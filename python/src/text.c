/* Slices of the input to str, exactly as json.loads reads the JSON writer's
 * strings (doc/json.md): folded values, valid UTF-8 decoded, and
 * every byte that is not part of valid UTF-8 turned into the code point of
 * the same number (the writer's \u00XX). */
#include "pyadexp.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"

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

/* Length of the valid UTF-8 sequence at s[0..n), or 0: the library's rule
 * (utf8.h), which is also Python's strict decoder's. */
static size_t utf8_len(const unsigned char *s, size_t n, Py_UCS4 *out)
{
    unsigned cp = 0;
    size_t len = adexp_utf8_seq(s, n, &cp);
    *out = cp;
    return len;
}

/* The slow way, for text that strict UTF-8 refuses. */
static PyObject *decode_mixed(const unsigned char *s, size_t n)
{
    Py_UCS4 *u = PyMem_Malloc(n ? n * sizeof(Py_UCS4) : 1);
    if (!u)
        return PyErr_NoMemory();
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        Py_UCS4 cp;
        size_t len = s[i] >= 0x80 ? utf8_len(s + i, n - i, &cp) : 0;
        if (len) {
            u[k++] = cp;
            i += len;
        } else {
            u[k++] = s[i++];
        }
    }
    PyObject *r = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, u, (Py_ssize_t)k);
    PyMem_Free(u);
    return r;
}

static PyObject *decode(const char *s, size_t n)
{
    if (n > PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    PyObject *r = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "strict");
    if (r || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        return r;
    PyErr_Clear();
    return decode_mixed((const unsigned char *)s, n);
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
