/* The typed view: the most used fields, read off the field tree after a
 * message is parsed. Single fields keep their first occurrence; repeated ones
 * become arrays in the arena.
 *
 * One walk of the top-level fields (adexp_view_walk) fills the single
 * fields and bounds the arrays' sizes (an upper bound, so a list is sized
 * by its nchildren without looking at its items), keeping the repeated
 * fields, which then fill the arrays, and the rest (what the view does not
 * hold, the view writer's "other"). The view writer reads the walk and the
 * items' rules without the arrays. A field's part in the view comes from a
 * table by dict_id rather than a switch per keyword. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "adexp.h"
#include "dict_ids.h"
#include "internal.h"

/* Tables by dict_id have ID_TABLE entries, those past DICT_COUNT zero: an id
 * is either below DICT_COUNT or ADEXP_DICT_NONE, which masks to one of them,
 * so a lookup needs no bounds check. */
#define ID_TABLE 1024u
_Static_assert(DICT_COUNT < ID_TABLE && (ADEXP_DICT_NONE & (ID_TABLE - 1)) >= DICT_COUNT,
               "unknown fields look up a zero entry");
#define BY_ID(table, f) ((table)[(f)->dict_id & (ID_TABLE - 1)])

/* What the view does with a top-level field. The repeated kinds come first,
 * so that their bounds fit an array indexed by the action. */
enum view_action {
    ACT_NONE = 0,
    ACT_EETFIR = VIEW_EETFIR, ACT_SPEED = VIEW_SPEED, ACT_REGUL = VIEW_REGUL,
    ACT_ESTDATA = VIEW_ESTDATA, ACT_GEO = VIEW_GEO,
    ACT_ADDR = VIEW_ADDR, ACT_RTEPTS = VIEW_RTEPTS,   /* lists: their FAC or PT items */
    ACT_ARRAYS = VIEW_KINDS,   /* end of the repeated kinds */
    ACT_REFDATA = ACT_ARRAYS, ACT_MSGREF, ACT_COORDATA, ACT_CFL,
    ACT_SINGLE                 /* ACT_SINGLE + k: the view member at 8 * k */
};

/* The single fields are the view's first slices: a member is encoded as its
 * offset in 8-byte units, which an address computation scales for free. */
#define SINGLE(m) (ACT_SINGLE + offsetof(adexp_view, m) / 8)
_Static_assert(offsetof(adexp_view, altnz) == 26 * sizeof(adexp_slice),
               "the single fields are the view's first 27 slices");
_Static_assert(SINGLE(altnz) <= UINT8_MAX, "actions fit a byte");
_Static_assert(VIEW_REPEATS < VIEW_END, "a kept field's index fits a byte");

static const uint8_t view_action[ID_TABLE] = {
    [DICT_ID_TITLE] = SINGLE(title), [DICT_ID_ARCID] = SINGLE(arcid),
    [DICT_ID_ADEP] = SINGLE(adep), [DICT_ID_ADES] = SINGLE(ades),
    [DICT_ID_ARCTYP] = SINGLE(arctyp), [DICT_ID_EOBT] = SINGLE(eobt),
    [DICT_ID_EOBD] = SINGLE(eobd), [DICT_ID_IFPLID] = SINGLE(ifplid),
    [DICT_ID_SSRCODE] = SINGLE(ssrcode), [DICT_ID_FLTRUL] = SINGLE(fltrul),
    [DICT_ID_FLTTYP] = SINGLE(flttyp), [DICT_ID_WKTRC] = SINGLE(wktrc),
    [DICT_ID_CEQPT] = SINGLE(ceqpt), [DICT_ID_SEQPT] = SINGLE(seqpt),
    [DICT_ID_RFL] = SINGLE(rfl), [DICT_ID_ROUTE] = SINGLE(route),
    [DICT_ID_ALTRNT1] = SINGLE(altrnt1), [DICT_ID_ALTRNT2] = SINGLE(altrnt2),
    [DICT_ID_REG] = SINGLE(reg), [DICT_ID_OPR] = SINGLE(opr),
    [DICT_ID_PBN] = SINGLE(pbn), [DICT_ID_MSGTXT] = SINGLE(msgtxt),
    [DICT_ID_COMMENT] = SINGLE(comment), [DICT_ID_FILTIM] = SINGLE(filtim),
    [DICT_ID_ORGNID] = SINGLE(orgnid), [DICT_ID_CTOT] = SINGLE(ctot),
    [DICT_ID_ALTNZ] = SINGLE(altnz),
    [DICT_ID_EETFIR] = ACT_EETFIR, [DICT_ID_SPEED] = ACT_SPEED,
    [DICT_ID_REGUL] = ACT_REGUL, [DICT_ID_ESTDATA] = ACT_ESTDATA,
    [DICT_ID_GEO] = ACT_GEO, [DICT_ID_ADDR] = ACT_ADDR,
    [DICT_ID_RTEPTS] = ACT_RTEPTS, [DICT_ID_REFDATA] = ACT_REFDATA,
    [DICT_ID_MSGREF] = ACT_MSGREF, [DICT_ID_COORDATA] = ACT_COORDATA,
    [DICT_ID_CFL] = ACT_CFL,
};

static void set_once(adexp_slice *slot, adexp_slice value)
{
    if (!slot->ptr)
        *slot = value;
}

/* The value of a subfield: its own text, or for a compound such as
 * -SENDER -FAC X, the text of its first subfield. A pointer, so that the
 * caller copies the slice once, whichever field it comes from. */
static const adexp_slice *leaf_value(const adexp_field *f)
{
    if (f->kind == ADEXP_COMPOUND && f->value.len == 0 && f->child)
        f = f->child;
    return &f->value;
}

/* RTEPTS -PT subfields, by dict_id: the byte offset of the point's slice
 * plus one slice, so that 0 is a subfield the point does not keep. */
#define POFF(m) (sizeof(adexp_slice) + offsetof(adexp_point, m))
_Static_assert(POFF(longtd) <= UINT8_MAX, "offsets fit a byte");
static const uint8_t point_off[ID_TABLE] = {
    [DICT_ID_PTID] = POFF(ptid), [DICT_ID_FL] = POFF(fl),
    [DICT_ID_ETO] = POFF(eto), [DICT_ID_TO] = POFF(to),
    [DICT_ID_SFL] = POFF(sfl), [DICT_ID_LATTD] = POFF(lattd),
    [DICT_ID_LONGTD] = POFF(longtd),
};

/* A point from its subfields c. Writes the whole point: the array it goes to
 * is not zeroed. Member by member, as gcc makes a memset of it a rep stos.
 * Inline: gcc keeps it out of line for its two callers, and the call costs
 * about 9 instructions a point. */
static inline void fill_point(adexp_point *pt, const adexp_field *c)
{
    static const adexp_slice none;
    pt->ptid = pt->fl = pt->eto = pt->to = pt->sfl = pt->lattd = pt->longtd = none;
    for (; c; c = c->next) {
        unsigned off = BY_ID(point_off, c);
        if (!off)
            continue;
        adexp_slice *slot = (adexp_slice *)(void *)((char *)pt + off) - 1;
        if (slot->ptr)
            continue;
        /* the kind first: a basic subfield's own value is copied at once */
        *slot = c->kind == ADEXP_COMPOUND ? *leaf_value(c) : c->value;
    }
}

/* The subfields of compound f, if they are the three of ids x, y and z in
 * this order (its usual shape), in s; else 0. No test of their kind: PTID, FL, ETO, GEOID, LATTD and
 * LONGTD are basic in the dictionary, from which a known field takes its
 * kind, so none is a compound. */
static inline int usual_three(const adexp_field *f, unsigned x, unsigned y, unsigned z,
                              const adexp_field *s[3])
{
    const adexp_field *a = f->child, *b, *c;
    if (f->nchildren != 3 || !a || !(b = a->next) || !(c = b->next) || a->dict_id != x ||
        b->dict_id != y || c->dict_id != z)
        return 0;
    s[0] = a;
    s[1] = b;
    s[2] = c;
    return 1;
}

/* fill_point for the usual point, -PT -PTID x -FL y -ETO z. Returns 0 for
 * any other. A third of the instructions of fill_point's loop, which a
 * route of points repeats. */
static inline int fill_usual_point(adexp_point *pt, const adexp_field *item)
{
    static const adexp_slice none;
    const adexp_field *s[3];
    if (!usual_three(item, DICT_ID_PTID, DICT_ID_FL, DICT_ID_ETO, s))
        return 0;
    pt->ptid = s[0]->value;
    pt->fl = s[1]->value;
    pt->eto = s[2]->value;
    pt->to = pt->sfl = pt->lattd = pt->longtd = none;
    return 1;
}

/* The -PT items of an RTEPTS list into points from pt on. Returns the end. */
static adexp_point *fill_points(adexp_point *pt, const adexp_field *item)
{
    for (; item; item = item->next)
        if (item->dict_id == DICT_ID_PT) {
            if (!fill_usual_point(pt, item))
                fill_point(pt, item->child);
            pt++;
        }
    return pt;
}

static void fill_estdata(adexp_estdata *e, const adexp_field *f)
{
    const adexp_field *s[3];
    if (usual_three(f, DICT_ID_PTID, DICT_ID_ETO, DICT_ID_FL, s)) {
        static const adexp_slice none;
        e->ptid = s[0]->value;
        e->eto = s[1]->value;
        e->fl = s[2]->value;
        e->sfl = none;
        return;
    }
    adexp_point pt;
    fill_point(&pt, f->child);
    e->ptid = pt.ptid;
    e->eto = pt.eto;
    e->fl = pt.fl;
    e->sfl = pt.sfl;
}

static void fill_geo(adexp_geo *g, const adexp_field *f)
{
    static const adexp_slice none;
    const adexp_field *s[3];
    if (usual_three(f, DICT_ID_GEOID, DICT_ID_LATTD, DICT_ID_LONGTD, s)) {
        g->geoid = s[0]->value;
        g->lattd = s[1]->value;
        g->longtd = s[2]->value;
        return;
    }
    g->geoid = g->lattd = g->longtd = none;
    for (const adexp_field *c = f->child; c; c = c->next) {
        if (c->dict_id == DICT_ID_GEOID) set_once(&g->geoid, c->value);
        if (c->dict_id == DICT_ID_LATTD) set_once(&g->lattd, c->value);
        if (c->dict_id == DICT_ID_LONGTD) set_once(&g->longtd, c->value);
    }
}

/* The fill_ functions below set their structure whole (from zero), so
 * that the view's writer need not clear it before the walk. */
static void fill_ref(adexp_ref *r, const adexp_field *f)
{
    static const adexp_ref none;
    *r = none;
    for (const adexp_field *c = f->child; c; c = c->next) {
        if (c->dict_id == DICT_ID_SENDER) set_once(&r->sender_fac, *leaf_value(c));
        if (c->dict_id == DICT_ID_RECVR) set_once(&r->recvr_fac, *leaf_value(c));
        if (c->dict_id == DICT_ID_SEQNUM) set_once(&r->seqnum, c->value);
    }
}

static void fill_coordata(adexp_coordata *cd, const adexp_field *f)
{
    static const adexp_coordata none;
    *cd = none;
    for (const adexp_field *c = f->child; c; c = c->next) {
        switch (c->dict_id) {
        case DICT_ID_PTID: set_once(&cd->ptid, c->value); break;
        case DICT_ID_TO: set_once(&cd->to, c->value); break;
        case DICT_ID_STO: set_once(&cd->sto, c->value); break;
        case DICT_ID_TFL: set_once(&cd->tfl, c->value); break;
        case DICT_ID_SFL: set_once(&cd->sfl, c->value); break;
        default: break;
        }
    }
}

/* CFL's subfields; a CFL written as a plain level (-CFL F190, the form of
 * the specification's examples, E.4.3) has that level as its FL. */
static void fill_cfl(adexp_cfl *cfl, const adexp_field *f)
{
    static const adexp_cfl none;
    *cfl = none;
    if (f->value.len && !f->child) {
        cfl->fl = f->value;
        return;
    }
    for (const adexp_field *c = f->child; c; c = c->next) {
        switch (c->dict_id) {
        case DICT_ID_FL: set_once(&cfl->fl, c->value); break;
        case DICT_ID_PTID: set_once(&cfl->ptid, c->value); break;
        case DICT_ID_SFL: set_once(&cfl->sfl, c->value); break;
        default: break;
        }
    }
}

/* Where the repeated kinds go, in one arena block sized by bound_arrays:
 * the next free entry of each array (or, kept aside, its start). */
typedef struct view_arrays {
    adexp_slice *slices[ACT_REGUL + 1];    /* by action: EETFIR, SPEED, REGUL */
    adexp_estdata *est;
    adexp_geo *geo;
    adexp_slice *addr;
    adexp_point *pts;
} view_arrays;

/* A single field (a >= ACT_ARRAYS): the first occurrence is kept, and for
 * REFDATA, MSGREF, COORDATA and CFL the occurrences are counted. Inline:
 * gcc keeps it out of line, a call per field. */
static inline void add_single(adexp_view *v, const adexp_field *f, unsigned a)
{
    if (a >= ACT_SINGLE) {
        adexp_slice *slot = (adexp_slice *)(void *)((char *)v + ((size_t)a - ACT_SINGLE) * 8);
        if (!slot->ptr)
            *slot = f->value;
    } else if (a == ACT_REFDATA) {
        if (!v->has_refdata++)
            fill_ref(&v->refdata, f);
    } else if (a == ACT_MSGREF) {
        if (!v->has_msgref++)
            fill_ref(&v->msgref, f);
    } else if (a == ACT_COORDATA) {
        if (!v->has_coordata++)
            fill_coordata(&v->coordata, f);
    } else if (!v->has_cfl++) {
        fill_cfl(&v->cfl, f);
    }
}

/* A field of a repeated kind (0 < a < ACT_ARRAYS) into its array, the
 * cursor moving past what it wrote. */
static inline void add_repeated(view_arrays *w, const adexp_field *f, unsigned a)
{
    if (a <= ACT_REGUL) {
        *w->slices[a]++ = f->value;
    } else if (a == ACT_RTEPTS) {
        w->pts = fill_points(w->pts, f->child);
    } else if (a == ACT_ESTDATA) {
        fill_estdata(w->est++, f);
    } else if (a == ACT_GEO) {
        fill_geo(w->geo++, f);
    } else {
        for (const adexp_field *c = f->child; c; c = c->next)
            if (c->dict_id == DICT_ID_FAC)
                *w->addr++ = c->value;
    }
}

/* Whether f, of single action a, is a later occurrence of its kind
 * (which goes to the rest, as the view holds the first): the kinds met
 * are bits of *seen. */
_Static_assert(SINGLE(altnz) - ACT_ARRAYS < 64, "the single kinds are bits of a word");
_Static_assert(ACT_SINGLE - ACT_ARRAYS == VIEW_SINGLE_SHIFT, "VIEW_SINGLE_BIT is a kind's bit");
static inline int met_before(uint64_t *seen, unsigned a)
{
    uint64_t bit = (uint64_t)1 << (a - ACT_ARRAYS);
    int met = (*seen & bit) != 0;
    *seen |= bit;
    return met;
}

/* Whether f, of action a, goes to the rest: of no member's keyword, or a
 * single member's after its first. */
static inline int to_rest(uint64_t *seen, unsigned a)
{
    return a == ACT_NONE || (a >= ACT_ARRAYS && met_before(seen, a));
}

/* One walk of the top-level fields: the single ones into the view (a
 * later occurrence into the rest too), the others into the rest. The
 * repeated fields are kept in r (the first VIEW_REPEATS of them), so that
 * sizing and filling the arrays walks only them. The counts in locals:
 * the stores to r may alias them for the compiler. */
void adexp_view_walk(adexp_view *v, const adexp_field *f, adexp_view_fields *r)
{
    size_t n = 0, nrest = 0;
    unsigned kinds = 0;
    uint64_t seen = 0;
    unsigned char last[ACT_ARRAYS];   /* read where kinds has the kind */
    r->first = NULL;
    for (; f; f = f->next) {
        unsigned a = BY_ID(view_action, f);
        if (a >= ACT_SINGLE && !met_before(&seen, a)) {
            /* its first occurrence: the slot is still zero */
            *(adexp_slice *)(void *)((char *)v + ((size_t)a - ACT_SINGLE) * 8) = f->value;
            continue;
        }
        if (a >= ACT_ARRAYS) {
            add_single(v, f, a);
            if (a < ACT_SINGLE && !met_before(&seen, a))
                continue;
        } else if (a != ACT_NONE) {
            if (n < VIEW_REPEATS) {
                r->rep[n] = f;
                r->next[n] = VIEW_END;
                if (kinds >> a & 1)
                    r->next[last[a]] = (unsigned char)n;
                else
                    r->head[a] = (unsigned char)n;
                last[a] = (unsigned char)n;
            }
            if (!n)
                r->first = f;
            kinds |= 1u << a;
            n++;
            continue;
        }
        if (nrest < VIEW_REST)         /* the rest, as to_rest tells it */
            r->rest[nrest] = f;
        nrest++;
    }
    r->n = n;
    r->nrest = nrest;
    r->kinds = kinds;
    r->singles = seen;
}

void adexp_view_rest(const adexp_field *fields, const adexp_field **v)
{
    uint64_t seen = 0;
    for (const adexp_field *f = fields; f; f = f->next) {
        if (to_rest(&seen, BY_ID(view_action, f)))
            *v++ = f;
    }
}

unsigned adexp_view_kind(const adexp_field *f)
{
    unsigned a = BY_ID(view_action, f);
    return a < ACT_ARRAYS ? a : ACT_NONE;
}

void adexp_view_point(adexp_point *pt, const adexp_field *item)
{
    if (!fill_usual_point(pt, item))
        fill_point(pt, item->child);
}

void adexp_view_estdata(adexp_estdata *e, const adexp_field *f)
{
    fill_estdata(e, f);
}

void adexp_view_geo(adexp_geo *g, const adexp_field *f)
{
    fill_geo(g, f);
}

/* One block for all the arrays, not zeroed: every item is written whole.
 * Entry sizes are multiples of 16, so each part stays aligned. */
static int place_arrays(view_arrays *w, const size_t *n, adexp_arena *arena)
{
    size_t bytes = n[ACT_RTEPTS] * sizeof(adexp_point) +
                   n[ACT_ESTDATA] * sizeof(adexp_estdata) + n[ACT_GEO] * sizeof(adexp_geo) +
                   (n[ACT_ADDR] + n[ACT_EETFIR] + n[ACT_SPEED] + n[ACT_REGUL]) * sizeof(adexp_slice);
    char *p = adexp_arena_alloc(arena, bytes);
    if (!p)
        return 0;
    w->pts = (adexp_point *)(void *)p;
    w->est = (adexp_estdata *)(void *)(w->pts + n[ACT_RTEPTS]);
    w->geo = (adexp_geo *)(void *)(w->est + n[ACT_ESTDATA]);
    w->addr = (adexp_slice *)(void *)(w->geo + n[ACT_GEO]);
    w->slices[ACT_EETFIR] = w->addr + n[ACT_ADDR];
    w->slices[ACT_SPEED] = w->slices[ACT_EETFIR] + n[ACT_EETFIR];
    w->slices[ACT_REGUL] = w->slices[ACT_SPEED] + n[ACT_SPEED];
    return 1;
}

/* An upper bound of each array's items, 1 + nchildren per repeated field
 * (a list's items are its children, some maybe of another kind; an ESTDATA
 * or GEO gets room for its children too, which costs less than a branch):
 * of those kept in r, or when there were more, of those found again from
 * r->first on. They add up to at most the message's nfields. */
static void bound_arrays(const adexp_view_fields *r, size_t n[VIEW_KINDS])
{
    memset(n, 0, VIEW_KINDS * sizeof *n);
    if (r->n <= VIEW_REPEATS) {
        for (size_t i = 0; i < r->n; i++)
            n[BY_ID(view_action, r->rep[i])] += 1 + (size_t)r->rep[i]->nchildren;
        return;
    }
    for (const adexp_field *f = r->first; f; f = f->next) {
        unsigned a = BY_ID(view_action, f);
        if (a != ACT_NONE && a < ACT_ARRAYS)
            n[a] += 1 + (size_t)f->nchildren;
    }
}

/* The repeated fields into their arrays: those kept in r, or when there
 * were more, those found again from r->first on. */
static void fill_arrays(view_arrays *w, const adexp_view_fields *r)
{
    if (r->n <= VIEW_REPEATS) {
        for (size_t i = 0; i < r->n; i++)
            add_repeated(w, r->rep[i], BY_ID(view_action, r->rep[i]));
        return;
    }
    for (const adexp_field *f = r->first; f; f = f->next) {
        unsigned a = BY_ID(view_action, f);
        if (a != ACT_NONE && a < ACT_ARRAYS)
            add_repeated(w, f, a);
    }
}

/* Store the arrays that got items in the view (zero on entry, so an empty
 * one stays NULL with n 0): they start at s and end at e. */
static void set_arrays(adexp_view *v, const view_arrays *s, const view_arrays *e)
{
    if (e->pts != s->pts)
        v->rtepts = s->pts, v->n_rtepts = (size_t)(e->pts - s->pts);
    if (e->est != s->est)
        v->estdata = s->est, v->n_estdata = (size_t)(e->est - s->est);
    if (e->geo != s->geo)
        v->geo = s->geo, v->n_geo = (size_t)(e->geo - s->geo);
    if (e->addr != s->addr)
        v->addr.v = s->addr, v->addr.n = (size_t)(e->addr - s->addr);
    adexp_slice *const *sv = s->slices, *const *ev = e->slices;
    if (ev[ACT_EETFIR] != sv[ACT_EETFIR])
        v->eetfir.v = sv[ACT_EETFIR], v->eetfir.n = (size_t)(ev[ACT_EETFIR] - sv[ACT_EETFIR]);
    if (ev[ACT_SPEED] != sv[ACT_SPEED])
        v->speed.v = sv[ACT_SPEED], v->speed.n = (size_t)(ev[ACT_SPEED] - sv[ACT_SPEED]);
    if (ev[ACT_REGUL] != sv[ACT_REGUL])
        v->regul.v = sv[ACT_REGUL], v->regul.n = (size_t)(ev[ACT_REGUL] - sv[ACT_REGUL]);
}

/* msg->view is zero on entry: adexp_parser_next clears the whole msg. The
 * fields before the first of a repeated kind need no arrays; from there, one
 * walk fills the single fields and sizes the arrays, and the repeated
 * fields fill them. If the arena runs out, the arrays are left empty (the
 * single fields are filled). */
int adexp_view_build(adexp_msg *msg, adexp_arena *arena)
{
    adexp_view *v = &msg->view;
    adexp_view_fields r;
    adexp_view_walk(v, msg->fields, &r);
    if (!r.n)
        return 1;
    /* the bounds add up to at most msg->nfields, so the sizes cannot wrap */
    size_t bound[VIEW_KINDS];
    bound_arrays(&r, bound);
    view_arrays start, cur;
    if (msg->nfields > SIZE_MAX / sizeof(adexp_point) || !place_arrays(&start, bound, arena))
        return 0;
    cur = start;
    fill_arrays(&cur, &r);
    set_arrays(v, &start, &cur);
    return 1;
}

void adexp_view_title(adexp_msg *msg)
{
    for (const adexp_field *f = msg->fields; f; f = f->next)
        if (f->dict_id == DICT_ID_TITLE && f->value.ptr) {   /* as set_once */
            msg->view.title = f->value;
            return;
        }
}
