/* Message.view: the typed view (adexp_view in include/adexp.h) as a dict.
 * Keys are the struct's member names; absent fields are left out; values
 * are folded like the JSON's. Every key is named in the tables below and
 * only there, so that they can follow a JSON view format in one place. */
#include "pyadexp.h"

#include <stddef.h>

typedef struct slot {
    const char *key;
    size_t offset;
} slot;

#define S(type, m) {#m, offsetof(type, m)}

static const slot singles[] = {
    S(adexp_view, title), S(adexp_view, arcid), S(adexp_view, adep),
    S(adexp_view, ades), S(adexp_view, arctyp), S(adexp_view, eobt),
    S(adexp_view, eobd), S(adexp_view, ifplid), S(adexp_view, ssrcode),
    S(adexp_view, fltrul), S(adexp_view, flttyp), S(adexp_view, wktrc),
    S(adexp_view, ceqpt), S(adexp_view, seqpt), S(adexp_view, rfl),
    S(adexp_view, route), S(adexp_view, altrnt1), S(adexp_view, altrnt2),
    S(adexp_view, reg), S(adexp_view, opr), S(adexp_view, pbn),
    S(adexp_view, msgtxt), S(adexp_view, comment), S(adexp_view, filtim),
    S(adexp_view, orgnid), S(adexp_view, ctot), S(adexp_view, altnz),
};

static const slot repeated[] = {
    S(adexp_view, addr), S(adexp_view, eetfir), S(adexp_view, speed),
    S(adexp_view, regul),
};

static const slot point[] = {
    S(adexp_point, ptid), S(adexp_point, fl), S(adexp_point, eto),
    S(adexp_point, to), S(adexp_point, sfl), S(adexp_point, lattd),
    S(adexp_point, longtd),
};

static const slot estdata[] = {
    S(adexp_estdata, ptid), S(adexp_estdata, eto), S(adexp_estdata, fl),
    S(adexp_estdata, sfl),
};

static const slot geo[] = {
    S(adexp_geo, geoid), S(adexp_geo, lattd), S(adexp_geo, longtd),
};

static const slot ref[] = {
    S(adexp_ref, sender_fac), S(adexp_ref, recvr_fac), S(adexp_ref, seqnum),
};

static const slot coordata[] = {
    S(adexp_coordata, ptid), S(adexp_coordata, to), S(adexp_coordata, sto),
    S(adexp_coordata, tfl), S(adexp_coordata, sfl),
};

static const slot cfl[] = {
    S(adexp_cfl, fl), S(adexp_cfl, ptid), S(adexp_cfl, sfl),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int put(PyObject *d, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

/* The present slices of struct base, per table, into d. */
static int put_slices(PyObject *d, const void *base, const slot *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const adexp_slice *s = (const adexp_slice *)((const char *)base + t[i].offset);
        if (s->ptr && put(d, t[i].key, pa_str(*s, 1)) != 0)
            return -1;
    }
    return 0;
}

static PyObject *struct_dict(const void *base, const slot *t, size_t n)
{
    PyObject *d = PyDict_New();
    if (d && put_slices(d, base, t, n) != 0)
        Py_CLEAR(d);
    return d;
}

static PyObject *slices_list(const adexp_slices *s)
{
    PyObject *list = PyList_New((Py_ssize_t)s->n);
    for (size_t i = 0; list && i < s->n; i++) {
        PyObject *v = pa_str(s->v[i], 1);
        if (!v)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

static PyObject *structs_list(const void *v, size_t n, size_t size,
                              const slot *t, size_t nt)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *d = struct_dict((const char *)v + i * size, t, nt);
        if (!d)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, d);
    }
    return list;
}

static int put_arrays(PyObject *d, const adexp_view *v)
{
    for (size_t i = 0; i < N(repeated); i++) {
        const adexp_slices *s = (const adexp_slices *)((const char *)v + repeated[i].offset);
        if (s->n && put(d, repeated[i].key, slices_list(s)) != 0)
            return -1;
    }
    if (v->n_rtepts && put(d, "rtepts", structs_list(v->rtepts, v->n_rtepts,
                                                     sizeof *v->rtepts, point, N(point))))
        return -1;
    if (v->n_estdata && put(d, "estdata", structs_list(v->estdata, v->n_estdata,
                                                       sizeof *v->estdata, estdata, N(estdata))))
        return -1;
    if (v->n_geo && put(d, "geo", structs_list(v->geo, v->n_geo, sizeof *v->geo,
                                               geo, N(geo))))
        return -1;
    return 0;
}

static int put_structs(PyObject *d, const adexp_view *v)
{
    if (v->has_refdata && put(d, "refdata", struct_dict(&v->refdata, ref, N(ref))))
        return -1;
    if (v->has_msgref && put(d, "msgref", struct_dict(&v->msgref, ref, N(ref))))
        return -1;
    if (v->has_coordata &&
        put(d, "coordata", struct_dict(&v->coordata, coordata, N(coordata))))
        return -1;
    if (v->has_cfl && put(d, "cfl", struct_dict(&v->cfl, cfl, N(cfl))))
        return -1;
    return 0;
}

PyObject *pa_view_dict(const adexp_view *v)
{
    PyObject *d = PyDict_New();
    if (d && (put_slices(d, v, singles, N(singles)) || put_arrays(d, v) ||
              put_structs(d, v)))
        Py_CLEAR(d);
    return d;
}
