/* Parsing a buffer into records (message + its own arena) without the GIL,
 * the cached parser, the CLI's content checks, and the Blob that owns a
 * file's bytes for the messages that point into them. */
#include "pyadexp.h"
#include "batch_nul.h"
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

static int grow(pa_msgs *r)
{
    if (r->n < r->cap)
        return 0;
    size_t cap = r->cap ? r->cap * 2 : 8;
    adexp_msg *v = realloc(r->v, cap * sizeof *v);
    if (!v)
        return -1;
    r->v = v;
    r->cap = cap;
    return 0;
}

/* A tree takes a few times the bytes of its text: chunks near that size
 * keep a short input's arena small and a long one's chunks few. */
void pa_arena_init(adexp_arena *a, size_t len)
{
    size_t chunk = len < 1024 ? 4096 : len > (256u << 10) ? (1u << 20) : len * 4;
    adexp_arena_init(a, NULL);
    a->chunk_size = chunk;
}

int pa_parse_all(adexp_parser *p, const char *data, size_t len,
                 adexp_arena *arena, pa_msgs *r)
{
    int has_nul = memchr(data, '\0', len) != NULL;
    lines_cursor lines = lines_cursor_at(0);
    adexp_parser_reset(p, data, len);
    for (;;) {
        if (grow(r) != 0)
            break;
        adexp_status st = adexp_parser_next(p, arena, &r->v[r->n]);
        if (st == ADEXP_END)
            return 0;
        if (has_nul)   /* the batch driver's rule, as adexp-parse reports it */
            batch_mark_nul(arena, &lines, data, &r->v[r->n]);
        r->n++;
        if (st == ADEXP_E_NOMEM)
            break;
    }
    pa_msgs_free(r);
    return -1;
}

void pa_msgs_free(pa_msgs *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}

/* One parser kept for the next call with the same limits: making one per
 * call would cost more than parsing a short message. */
static adexp_parser *cached;
static adexp_options cached_opts;

static int same_options(const adexp_options *a, const adexp_options *b)
{
    return a->max_depth == b->max_depth && a->max_fields == b->max_fields &&
           a->max_list_items == b->max_list_items &&
           a->max_keyword_len == b->max_keyword_len &&
           a->max_errors == b->max_errors &&
           a->max_message_size == b->max_message_size && a->dictionary == b->dictionary;
}

adexp_parser *pa_parser_get(const adexp_options *o)
{
    if (cached && same_options(o, &cached_opts)) {
        adexp_parser *p = cached;
        cached = NULL;
        return p;
    }
    adexp_parser *p = adexp_parser_new(o, NULL);
    if (!p)
        PyErr_NoMemory();
    return p;
}

void pa_parser_put(adexp_parser *p, const adexp_options *o)
{
    if (cached)
        adexp_parser_free(cached);
    cached = p;
    cached_opts = *o;
}

typedef struct pa_arena {
    PyObject_HEAD
    PyObject *base;
    adexp_arena arena;
} pa_arena;

static void arena_dealloc(PyObject *self)
{
    pa_arena *a = (pa_arena *)self;
    adexp_arena_free(&a->arena);
    Py_XDECREF(a->base);
    Py_TYPE(self)->tp_free(self);
}

PyTypeObject pa_ArenaType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "adexp._Arena",
    .tp_basicsize = sizeof(pa_arena),
    .tp_dealloc = arena_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The memory of message trees, kept alive for the messages in it.",
};

PyObject *pa_arena_new(adexp_arena *arena, PyObject *base)
{
    pa_arena *a = PyObject_New(pa_arena, &pa_ArenaType);
    if (!a) {
        adexp_arena_free(arena);
        return NULL;
    }
    a->arena = *arena;             /* no pointer into the struct itself */
    adexp_arena_init(arena, NULL);
    Py_INCREF(base);
    a->base = base;
    return (PyObject *)a;
}

adexp_arena *pa_arena_of(PyObject *arena_obj)
{
    return &((pa_arena *)arena_obj)->arena;
}
