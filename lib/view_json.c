/* The typed view as one JSON line per message (--format view): the view's
 * fields under lower-case keys, raw values folded as in the tree, decoded
 * companions beside them (_ft, _m, _utc, _deg), and every other top-level
 * field under "other". The README's "Typed view" table is the schema. */
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "dict_ids.h"
#include "json_out.h"
#include "select.h"

/* ------------------------------------------------------------ writing */

typedef struct vw {
    adexp_buf *b;
    int ok;
    int comma;                 /* the next key or element needs a ',' */
    int trim;                  /* the selection names fields */
    const adexp_select *sel;
    adexp_slice eobd;          /* for eobt_utc */
} vw;

static void raw(vw *w, const char *s, size_t n)
{
    if (w->ok && !adexp_buf_put(w->b, s, n))
        w->ok = 0;
}
#define RAW(w, lit) raw((w), (lit), sizeof(lit) - 1)

static void str(vw *w, adexp_slice s)
{
    if (w->ok && !adexp_json_put_string(w->b, s, 1))
        w->ok = 0;
}

static void sep(vw *w)
{
    if (w->comma)
        RAW(w, ",");
    w->comma = 1;
}

/* "key": with key a C string, then name's suffix. */
static void key(vw *w, const char *k, const char *suffix)
{
    sep(w);
    RAW(w, "\"");
    raw(w, k, strlen(k));
    if (suffix)
        raw(w, suffix, strlen(suffix));
    RAW(w, "\":");
}

static void open_(vw *w, const char *c)
{
    raw(w, c, 1);
    w->comma = 0;
}

static void close_(vw *w, const char *c)
{
    raw(w, c, 1);
    w->comma = 1;
}

static void put_u64(vw *w, uint64_t v)
{
    char tmp[20];
    size_t n = sizeof tmp;
    do
        tmp[--n] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    raw(w, tmp + n, sizeof tmp - n);
}

/* ------------------------------------------------------------ values */

/* How a member decodes. */
enum dec { D_NONE = 0, D_LEVEL, D_DATETIME, D_DATE, D_TIME, D_COORD, D_EOBT };

static const adexp_value_type when_type[] = {
    [D_DATETIME] = ADEXP_VALUE_DATETIME, [D_DATE] = ADEXP_VALUE_DATE,
    [D_TIME] = ADEXP_VALUE_TIME, [D_EOBT] = ADEXP_VALUE_TIME,
};

/* "k": value and its companions, if the value is there. */
static void member(vw *w, const char *k, adexp_slice v, int dec)
{
    if (!v.ptr)
        return;
    key(w, k, NULL);
    str(w, v);
    char buf[SEL_TEXT_BUF];
    size_t n;
    adexp_level l;
    switch (dec) {
    case D_LEVEL:
        if (!adexp_decode_level_any(v, &l))
            return;
        n = sel_companion(SUF_FT, 0, v, (adexp_slice){0}, buf);
        key(w, k, "_ft");
        raw(w, buf, n);
        if (l.unit == 'S' || l.unit == 'M') {
            n = sel_companion(SUF_M, 0, v, (adexp_slice){0}, buf);
            key(w, k, "_m");
            raw(w, buf, n);
        }
        return;
    case D_COORD:
        if ((n = sel_companion(SUF_DEG, 0, v, (adexp_slice){0}, buf)) != 0) {
            key(w, k, "_deg");
            raw(w, buf, n);
        }
        return;
    case D_DATETIME: case D_DATE: case D_TIME: case D_EOBT:
        n = sel_companion(SUF_UTC, when_type[dec], v,
                          dec == D_EOBT ? w->eobd : (adexp_slice){0}, buf);
        if (n) {
            key(w, k, "_utc");
            RAW(w, "\"");
            raw(w, buf, n);
            RAW(w, "\"");
        }
        return;
    default:
        return;
    }
}

/* ------------------------------------------------------------ the view */

typedef struct single {
    const char *key, *kw;
    uint16_t off;              /* offset of its slice in adexp_view */
    uint8_t dec;
} single;

#define S(k, KW, d) {#k, #KW, offsetof(adexp_view, k), d}
static const single singles[] = {
    S(arcid, ARCID, D_NONE), S(adep, ADEP, D_NONE), S(ades, ADES, D_NONE),
    S(arctyp, ARCTYP, D_NONE), S(eobt, EOBT, D_EOBT), S(eobd, EOBD, D_DATE),
    S(ifplid, IFPLID, D_NONE), S(ssrcode, SSRCODE, D_NONE), S(fltrul, FLTRUL, D_NONE),
    S(flttyp, FLTTYP, D_NONE), S(wktrc, WKTRC, D_NONE), S(ceqpt, CEQPT, D_NONE),
    S(seqpt, SEQPT, D_NONE), S(rfl, RFL, D_LEVEL), S(route, ROUTE, D_NONE),
    S(altrnt1, ALTRNT1, D_NONE), S(altrnt2, ALTRNT2, D_NONE), S(reg, REG, D_NONE),
    S(opr, OPR, D_NONE), S(pbn, PBN, D_NONE), S(msgtxt, MSGTXT, D_NONE),
    S(comment, COMMENT, D_NONE), S(filtim, FILTIM, D_NONE), S(orgnid, ORGNID, D_NONE),
    S(ctot, CTOT, D_TIME), S(altnz, ALTNZ, D_NONE),
};
#undef S

static int kept(const vw *w, const char *kw)
{
    return !w->trim || sel_keeps_keyword(w->sel, (adexp_slice){kw, strlen(kw)});
}

static void strings(vw *w, const char *k, const char *kw, adexp_slices s)
{
    if (!s.n || !kept(w, kw))
        return;
    key(w, k, NULL);
    open_(w, "[");
    for (size_t i = 0; i < s.n; i++) {
        sep(w);
        str(w, s.v[i]);
    }
    close_(w, "]");
}

static void points(vw *w, const adexp_view *v)
{
    if (!v->n_rtepts || !kept(w, "RTEPTS"))
        return;
    key(w, "rtepts", NULL);
    open_(w, "[");
    for (size_t i = 0; i < v->n_rtepts; i++) {
        const adexp_point *p = &v->rtepts[i];
        sep(w);
        open_(w, "{");
        member(w, "ptid", p->ptid, D_NONE);
        member(w, "fl", p->fl, D_LEVEL);
        member(w, "eto", p->eto, D_DATETIME);
        member(w, "to", p->to, D_TIME);
        member(w, "sfl", p->sfl, D_LEVEL);
        member(w, "lattd", p->lattd, D_COORD);
        member(w, "longtd", p->longtd, D_COORD);
        close_(w, "}");
    }
    close_(w, "]");
}

static void estdata(vw *w, const adexp_view *v)
{
    if (!v->n_estdata || !kept(w, "ESTDATA"))
        return;
    key(w, "estdata", NULL);
    open_(w, "[");
    for (size_t i = 0; i < v->n_estdata; i++) {
        const adexp_estdata *e = &v->estdata[i];
        sep(w);
        open_(w, "{");
        member(w, "ptid", e->ptid, D_NONE);
        member(w, "eto", e->eto, D_DATETIME);
        member(w, "fl", e->fl, D_LEVEL);
        member(w, "sfl", e->sfl, D_LEVEL);
        close_(w, "}");
    }
    close_(w, "]");
}

static void geo(vw *w, const adexp_view *v)
{
    if (!v->n_geo || !kept(w, "GEO"))
        return;
    key(w, "geo", NULL);
    open_(w, "[");
    for (size_t i = 0; i < v->n_geo; i++) {
        const adexp_geo *g = &v->geo[i];
        sep(w);
        open_(w, "{");
        member(w, "geoid", g->geoid, D_NONE);
        member(w, "lattd", g->lattd, D_COORD);
        member(w, "longtd", g->longtd, D_COORD);
        close_(w, "}");
    }
    close_(w, "]");
}

static void ref(vw *w, const char *k, const char *kw, int has, const adexp_ref *r)
{
    if (!has || !kept(w, kw))
        return;
    key(w, k, NULL);
    open_(w, "{");
    member(w, "sender_fac", r->sender_fac, D_NONE);
    member(w, "recvr_fac", r->recvr_fac, D_NONE);
    member(w, "seqnum", r->seqnum, D_NONE);
    close_(w, "}");
}

static void coordata(vw *w, const adexp_view *v)
{
    if (!v->has_coordata || !kept(w, "COORDATA"))
        return;
    const adexp_coordata *c = &v->coordata;
    key(w, "coordata", NULL);
    open_(w, "{");
    member(w, "ptid", c->ptid, D_NONE);
    member(w, "to", c->to, D_TIME);
    member(w, "sto", c->sto, D_TIME);
    member(w, "tfl", c->tfl, D_LEVEL);
    member(w, "sfl", c->sfl, D_LEVEL);
    close_(w, "}");
}

/* ------------------------------------------------------------ other */

/* What the view takes of a top-level field, by dict_id: the first
 * occurrence of a single field (its bit in a mask, plus 2), or every
 * occurrence. Tables have 1024 entries: ADEXP_DICT_NONE masks to a zero
 * one past DICT_COUNT. */
enum { TAKES_ALL = 1, TAKES_FIRST = 2 };
#define ID_TABLE 1024u
_Static_assert(DICT_COUNT < ID_TABLE && (ADEXP_DICT_NONE & (ID_TABLE - 1)) >= DICT_COUNT,
               "unknown fields look up a zero entry");
#define F(n) (TAKES_FIRST + (n))
static const uint8_t takes[ID_TABLE] = {
    [DICT_ID_TITLE] = F(0), [DICT_ID_ARCID] = F(1), [DICT_ID_ADEP] = F(2),
    [DICT_ID_ADES] = F(3), [DICT_ID_ARCTYP] = F(4), [DICT_ID_EOBT] = F(5),
    [DICT_ID_EOBD] = F(6), [DICT_ID_IFPLID] = F(7), [DICT_ID_SSRCODE] = F(8),
    [DICT_ID_FLTRUL] = F(9), [DICT_ID_FLTTYP] = F(10), [DICT_ID_WKTRC] = F(11),
    [DICT_ID_CEQPT] = F(12), [DICT_ID_SEQPT] = F(13), [DICT_ID_RFL] = F(14),
    [DICT_ID_ROUTE] = F(15), [DICT_ID_ALTRNT1] = F(16), [DICT_ID_ALTRNT2] = F(17),
    [DICT_ID_REG] = F(18), [DICT_ID_OPR] = F(19), [DICT_ID_PBN] = F(20),
    [DICT_ID_MSGTXT] = F(21), [DICT_ID_COMMENT] = F(22), [DICT_ID_FILTIM] = F(23),
    [DICT_ID_ORGNID] = F(24), [DICT_ID_CTOT] = F(25), [DICT_ID_ALTNZ] = F(26),
    [DICT_ID_REFDATA] = F(27), [DICT_ID_MSGREF] = F(28), [DICT_ID_COORDATA] = F(29),
    [DICT_ID_EETFIR] = TAKES_ALL, [DICT_ID_SPEED] = TAKES_ALL,
    [DICT_ID_REGUL] = TAKES_ALL, [DICT_ID_ESTDATA] = TAKES_ALL,
    [DICT_ID_GEO] = TAKES_ALL, [DICT_ID_ADDR] = TAKES_ALL, [DICT_ID_RTEPTS] = TAKES_ALL,
};
#undef F

/* Pointer windows for grouping siblings by keyword: a stack block, and a
 * heap block for a level that does not fit. */
#define SCRATCH 256
typedef struct scratch {
    const adexp_field **v;
    size_t used, cap;
    adexp_allocator a;
} scratch;

static int by_keyword(const void *pa, const void *pb)
{
    const adexp_field *a = *(const adexp_field *const *)pa, *b = *(const adexp_field *const *)pb;
    size_t n = a->keyword.len < b->keyword.len ? a->keyword.len : b->keyword.len;
    int c = memcmp(a->keyword.ptr, b->keyword.ptr, n);
    if (c || a->keyword.len != b->keyword.len)
        return c ? c : a->keyword.len < b->keyword.len ? -1 : 1;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static void put_value(vw *w, const adexp_field *f, scratch *s);

static void kw_key(vw *w, adexp_slice kw)
{
    sep(w);
    str(w, kw);
    RAW(w, ":");
}

/* The fields v[0..n) as object members, grouped by keyword (sorted):
 * one occurrence a value, more an array of values. */
static void put_grouped(vw *w, const adexp_field **v, size_t n, scratch *s)
{
    qsort(v, n, sizeof *v, by_keyword);
    for (size_t i = 0, j; i < n && w->ok; i = j) {
        for (j = i + 1; j < n && v[j]->keyword.len == v[i]->keyword.len &&
                        memcmp(v[j]->keyword.ptr, v[i]->keyword.ptr, v[i]->keyword.len) == 0;
             j++)
            ;
        kw_key(w, v[i]->keyword);
        if (j - i > 1)
            open_(w, "[");
        for (size_t k = i; k < j; k++) {
            if (j - i > 1)
                sep(w);
            put_value(w, v[k], s);
        }
        if (j - i > 1)
            close_(w, "]");
    }
}

/* A window of n pointers: from the scratch, or its own block (*own). */
static const adexp_field **window(scratch *s, size_t n, int *own)
{
    *own = 0;
    if (s->cap - s->used >= n) {
        const adexp_field **v = s->v + s->used;
        s->used += n;
        return v;
    }
    *own = 1;
    return n > SIZE_MAX / sizeof *s->v ? NULL : s->a.alloc(s->a.ctx, n * sizeof *s->v);
}

static void release(scratch *s, const adexp_field **v, size_t n, int own)
{
    if (own)
        s->a.free(s->a.ctx, (void *)v, n * sizeof *v);
    else
        s->used -= n;
}

/* A compound's subfields as an object (its own text under "value"). */
static void put_compound(vw *w, const adexp_field *f, scratch *s)
{
    int own;
    const adexp_field **v = window(s, f->nchildren, &own);
    if (!v) {
        w->ok = 0;
        return;
    }
    size_t n = 0;
    for (const adexp_field *c = f->child; c && n < f->nchildren; c = c->next)
        v[n++] = c;
    open_(w, "{");
    if (f->value.len) {
        key(w, "value", NULL);
        str(w, f->value);
    }
    put_grouped(w, v, n, s);
    close_(w, "}");
    release(s, v, f->nchildren, own);
}

/* A basic field's value; a compound's object; a list's items, each a
 * one-member object {KEYWORD: value}. */
static void put_value(vw *w, const adexp_field *f, scratch *s)
{
    if (f->kind == ADEXP_LIST) {
        open_(w, "[");
        for (const adexp_field *c = f->child; c && w->ok; c = c->next) {
            sep(w);
            open_(w, "{");
            kw_key(w, c->keyword);
            put_value(w, c, s);
            close_(w, "}");
        }
        close_(w, "]");
    } else if (f->kind == ADEXP_COMPOUND && f->child) {
        put_compound(w, f, s);
    } else {
        str(w, f->value);
    }
}

/* The top-level fields the view does not hold, under "other". */
static void other(vw *w, const adexp_msg *m, scratch *s)
{
    size_t n = 0;
    uint64_t seen = 0;
    for (const adexp_field *f = m->fields; f; f = f->next)
        n++;
    int own;
    const adexp_field **v = window(s, n, &own);
    if (!v) {
        w->ok = 0;
        return;
    }
    size_t k = 0;
    for (const adexp_field *f = m->fields; f; f = f->next) {
        unsigned t = takes[f->dict_id & (ID_TABLE - 1)];
        if (t == TAKES_ALL)
            continue;
        if (t >= TAKES_FIRST) {
            uint64_t bit = (uint64_t)1 << (t - TAKES_FIRST);
            if (!(seen & bit)) {
                seen |= bit;
                continue;
            }
        }
        if (!w->trim || sel_keeps_keyword(w->sel, f->keyword))
            v[k++] = f;
    }
    if (k) {
        key(w, "other", NULL);
        open_(w, "{");
        put_grouped(w, v, k, s);
        close_(w, "}");
    }
    release(s, v, n, own);
}

/* ------------------------------------------------------------ the line */

static void errors(vw *w, const adexp_msg *m)
{
    key(w, "errors", NULL);
    open_(w, "[");
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        const char *name = adexp_status_name(e->code);
        sep(w);
        RAW(w, "{\"code\":\"");
        raw(w, name, strlen(name));
        RAW(w, "\",\"message\":");
        str(w, (adexp_slice){e->message, strlen(e->message)});
        RAW(w, ",\"line\":");
        put_u64(w, e->line);
        RAW(w, ",\"column\":");
        put_u64(w, e->column);
        RAW(w, ",\"offset\":");
        put_u64(w, e->offset);
        RAW(w, "}");
    }
    close_(w, "]");
}

static void head(vw *w, const adexp_msg *m, const char *source)
{
    open_(w, "{");
    key(w, "source", NULL);
    if (w->ok && !adexp_json_put_string(w->b, (adexp_slice){source, strlen(source)}, 0))
        w->ok = 0;
    key(w, "index", NULL);
    put_u64(w, m->index);
    key(w, "offset", NULL);
    put_u64(w, m->offset);
    key(w, "title", NULL);
    if (m->view.title.ptr)
        str(w, m->view.title);
    else
        RAW(w, "null");
}

adexp_status adexp_view_json_write(adexp_buf *out, const adexp_msg *msg, const char *source,
                                   const adexp_select *sel)
{
    const adexp_field *stack[SCRATCH];
    scratch s = {stack, 0, SCRATCH, out->a};
    vw w = {out, 1, 0, adexp_select_has_fields(sel), sel, msg->view.eobd};
    size_t start = out->len;
    const adexp_view *v = &msg->view;
    head(&w, msg, source);
    for (size_t i = 0; i < sizeof singles / sizeof *singles; i++) {
        const single *e = &singles[i];
        adexp_slice val = *(const adexp_slice *)(const void *)((const char *)v + e->off);
        if (val.ptr && kept(&w, e->kw))
            member(&w, e->key, val, e->dec);
    }
    strings(&w, "addr", "ADDR", v->addr);
    strings(&w, "eetfir", "EETFIR", v->eetfir);
    strings(&w, "speed", "SPEED", v->speed);
    strings(&w, "regul", "REGUL", v->regul);
    points(&w, v);
    estdata(&w, v);
    geo(&w, v);
    ref(&w, "refdata", "REFDATA", v->has_refdata, &v->refdata);
    ref(&w, "msgref", "MSGREF", v->has_msgref, &v->msgref);
    coordata(&w, v);
    other(&w, msg, &s);
    errors(&w, msg);
    RAW(&w, "}\n");
    if (!w.ok) {
        out->len = start;
        return ADEXP_E_NOMEM;
    }
    return ADEXP_OK;
}
