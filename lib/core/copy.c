/* adexp_msg_copy: a message made independent of the bytes it was parsed
 * from and of the arena its tree is in, so that both can be reused while
 * the copy lives on (the batch driver hands messages out this way).
 *
 * The fields' and the envelope's slices lie in the message's text: the
 * bytes from the first to the end of the last are copied once and every
 * slice inside them is moved over. A slice elsewhere (none today, but the
 * view may name any bytes) is copied on its own. */
#include <string.h>

#include "adexp.h"

typedef struct span {
    const char *lo, *hi;       /* the bytes copied: [lo, hi) */
    char *to;                  /* their copy */
    adexp_arena *arena;
    int nomem;
} span;

static void widen(span *s, adexp_slice x)
{
    if (!x.ptr)
        return;
    if (!s->lo || x.ptr < s->lo)
        s->lo = x.ptr;
    if (!s->hi || x.ptr + x.len > s->hi)
        s->hi = x.ptr + x.len;
}

static void widen_fields(span *s, const adexp_field *f)
{
    for (; f; f = f->next) {
        widen(s, f->keyword);
        widen(s, f->value);
        widen_fields(s, f->child);
    }
}

static void move(span *s, adexp_slice *x)
{
    if (!x->ptr)
        return;
    if (x->ptr >= s->lo && x->ptr + x->len <= s->hi) {
        x->ptr = s->to + (x->ptr - s->lo);
        return;
    }
    char *p = adexp_arena_alloc(s->arena, x->len ? x->len : 1);
    if (!p) {
        s->nomem = 1;
        return;
    }
    memcpy(p, x->ptr, x->len);
    x->ptr = p;
}

/* The fields from f on into v (preorder), their slices moved: *used
 * counts the entries taken; returns the copy of f. */
static adexp_field *copy_fields(span *s, const adexp_field *f, adexp_field *v, size_t cap,
                                size_t *used)
{
    adexp_field *first = NULL, *prev = NULL;
    for (; f && *used < cap; f = f->next) {
        adexp_field *c = &v[(*used)++];
        *c = *f;
        move(s, &c->keyword);
        move(s, &c->value);
        c->next = NULL;
        c->child = copy_fields(s, f->child, v, cap, used);
        if (prev)
            prev->next = c;
        else
            first = c;
        prev = c;
    }
    return first;
}

static size_t count_fields(const adexp_field *f)
{
    size_t n = 0;
    for (; f; f = f->next)
        n += 1 + count_fields(f->child);
    return n;
}

/* A copy in the arena of n items of size bytes at v, or NULL. */
static void *dup_array(span *s, const void *v, size_t n, size_t size)
{
    if (!v || n == 0)
        return NULL;
    void *p = adexp_arena_alloc(s->arena, n * size);
    if (!p) {
        s->nomem = 1;
        return NULL;
    }
    return memcpy(p, v, n * size);
}

static void move_all(span *s, adexp_slice *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        move(s, &x[i]);
}

static void copy_slices(span *s, adexp_slices *x)
{
    adexp_slice *v = dup_array(s, x->v, x->n, sizeof *v);
    if (v)
        move_all(s, v, x->n);
    x->v = v;
    if (!v)
        x->n = 0;
}

/* Every slice of the view moved, its arrays copied. The structs of
 * slices are moved as arrays of slices: they hold nothing else. */
#define MOVE_STRUCT(s, p) move_all((s), (adexp_slice *)(void *)(p), sizeof *(p) / sizeof(adexp_slice))

static void copy_view(span *s, adexp_view *v)
{
    adexp_slice *singles[] = {
        &v->title, &v->arcid, &v->adep, &v->ades, &v->arctyp, &v->eobt, &v->eobd,
        &v->ifplid, &v->ssrcode, &v->fltrul, &v->flttyp, &v->wktrc, &v->ceqpt, &v->seqpt,
        &v->rfl, &v->route, &v->altrnt1, &v->altrnt2, &v->reg, &v->opr, &v->pbn,
        &v->msgtxt, &v->comment, &v->filtim, &v->orgnid, &v->ctot, &v->altnz,
    };
    for (size_t i = 0; i < sizeof singles / sizeof *singles; i++)
        move(s, singles[i]);
    copy_slices(s, &v->addr);
    copy_slices(s, &v->eetfir);
    copy_slices(s, &v->speed);
    copy_slices(s, &v->regul);
    adexp_point *pt = dup_array(s, v->rtepts, v->n_rtepts, sizeof *pt);
    for (size_t i = 0; pt && i < v->n_rtepts; i++)
        MOVE_STRUCT(s, &pt[i]);
    v->rtepts = pt;
    v->n_rtepts = pt ? v->n_rtepts : 0;
    adexp_estdata *est = dup_array(s, v->estdata, v->n_estdata, sizeof *est);
    for (size_t i = 0; est && i < v->n_estdata; i++)
        MOVE_STRUCT(s, &est[i]);
    v->estdata = est;
    v->n_estdata = est ? v->n_estdata : 0;
    adexp_geo *geo = dup_array(s, v->geo, v->n_geo, sizeof *geo);
    for (size_t i = 0; geo && i < v->n_geo; i++)
        MOVE_STRUCT(s, &geo[i]);
    v->geo = geo;
    v->n_geo = geo ? v->n_geo : 0;
    MOVE_STRUCT(s, &v->refdata);
    MOVE_STRUCT(s, &v->msgref);
    MOVE_STRUCT(s, &v->coordata);
    MOVE_STRUCT(s, &v->cfl);
}

static void copy_envelope(span *s, adexp_envelope *e)
{
    move(s, &e->transmission_id);
    move(s, &e->priority);
    move(s, &e->addressees);
    move(s, &e->filing_time);
    move(s, &e->originator);
    move_all(s, e->text, sizeof e->text / sizeof *e->text);
}

static void widen_envelope(span *s, const adexp_envelope *e)
{
    widen(s, e->transmission_id);
    widen(s, e->priority);
    widen(s, e->addressees);
    widen(s, e->filing_time);
    widen(s, e->originator);
    for (size_t i = 0; i < sizeof e->text / sizeof *e->text; i++)
        widen(s, e->text[i]);
}

adexp_status adexp_msg_copy(const adexp_msg *src, adexp_arena *arena, adexp_msg *dst)
{
    span s = {NULL, NULL, NULL, arena, 0};
    if (src->fields && src->fields->keyword.ptr) {   /* from the first field's '-', */
        const char *dash = src->fields->keyword.ptr; /* by which validation finds the */
        while (dash[-1] != '-')                      /* message's bytes */
            dash--;
        widen(&s, (adexp_slice){dash - 1, 1});
    }
    widen_fields(&s, src->fields);
    widen_envelope(&s, &src->envelope);
    adexp_msg m = *src;
    size_t n = s.lo ? (size_t)(s.hi - s.lo) : 0;
    if (s.lo && !(s.to = adexp_arena_alloc(arena, n ? n : 1)))
        return ADEXP_E_NOMEM;
    if (n)
        memcpy(s.to, s.lo, n);
    size_t nf = count_fields(src->fields), used = 0;
    adexp_field *v = nf ? adexp_arena_alloc(arena, nf * sizeof *v) : NULL;
    if (nf && !v)
        return ADEXP_E_NOMEM;
    m.fields = copy_fields(&s, src->fields, v, nf, &used);
    copy_view(&s, &m.view);
    copy_envelope(&s, &m.envelope);
    int lost = src->errors == &src->lost;
    if (src->nerrors && !lost)
        m.errors = dup_array(&s, src->errors, src->nerrors, sizeof *m.errors);
    if (s.nomem)
        return ADEXP_E_NOMEM;
    *dst = m;
    if (lost)
        dst->errors = &dst->lost;
    return ADEXP_OK;
}
