/* The typed view: the most used fields, read off the field tree after a
 * message is parsed. Single fields keep their first occurrence; repeated ones
 * become arrays in the arena.
 *
 * Two walks of the top-level fields: one counts the repeated kinds to size
 * their arrays, one fills. A field's part in the view comes from a table by
 * dict_id rather than a switch per keyword. */
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
 * so that their counts fit an array indexed by the action. */
enum view_action {
    ACT_NONE = 0,
    ACT_EETFIR, ACT_SPEED, ACT_REGUL, ACT_ESTDATA, ACT_GEO,
    ACT_ADDR, ACT_RTEPTS,      /* lists: counted by their items */
    ACT_ARRAYS,                /* end of the repeated kinds */
    ACT_REFDATA = ACT_ARRAYS, ACT_MSGREF, ACT_COORDATA,
    ACT_SINGLE                 /* ACT_SINGLE + k: the view's k-th slice */
};

/* The single fields are the view's first slices: a member is encoded as its
 * index among them. */
#define SINGLE(m) (ACT_SINGLE + offsetof(adexp_view, m) / sizeof(adexp_slice))
_Static_assert(offsetof(adexp_view, altnz) == 26 * sizeof(adexp_slice),
               "the single fields are the view's first 27 slices");
_Static_assert(SINGLE(altnz) <= UINT8_MAX, "actions fit a byte");

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
};

/* The k-th slice of a struct made of slices. */
static adexp_slice *slice_at(void *s, size_t k)
{
    return (adexp_slice *)(void *)((char *)s + k * sizeof(adexp_slice));
}

static void set_once(adexp_slice *slot, adexp_slice value)
{
    if (!slot->ptr)
        *slot = value;
}

/* The value of a subfield: its own text, or for a compound such as
 * -SENDER -FAC X, the text of its first subfield. */
static adexp_slice leaf_value(const adexp_field *f)
{
    if (f->kind == ADEXP_COMPOUND && f->value.len == 0 && f->child)
        return f->child->value;
    return f->value;
}

/* RTEPTS -PT subfields, by dict_id: 1 + the index of the point's slice. */
#define PSLOT(m) (1 + offsetof(adexp_point, m) / sizeof(adexp_slice))
static const uint8_t point_slot[ID_TABLE] = {
    [DICT_ID_PTID] = PSLOT(ptid), [DICT_ID_FL] = PSLOT(fl),
    [DICT_ID_ETO] = PSLOT(eto), [DICT_ID_TO] = PSLOT(to),
    [DICT_ID_SFL] = PSLOT(sfl), [DICT_ID_LATTD] = PSLOT(lattd),
    [DICT_ID_LONGTD] = PSLOT(longtd),
};

/* Writes the whole point: the array it goes to is not zeroed. Member by
 * member, as gcc makes a memset of it a rep stos. */
static void fill_point(adexp_point *pt, const adexp_field *f)
{
    static const adexp_slice none;
    pt->ptid = pt->fl = pt->eto = pt->to = pt->sfl = pt->lattd = pt->longtd = none;
    for (const adexp_field *c = f->child; c; c = c->next) {
        unsigned k = BY_ID(point_slot, c);
        if (k)
            set_once(slice_at(pt, k - 1), leaf_value(c));
    }
}

static void fill_estdata(adexp_estdata *e, const adexp_field *f)
{
    adexp_point pt;
    fill_point(&pt, f);
    e->ptid = pt.ptid;
    e->eto = pt.eto;
    e->fl = pt.fl;
    e->sfl = pt.sfl;
}

static void fill_geo(adexp_geo *g, const adexp_field *f)
{
    static const adexp_slice none;
    g->geoid = g->lattd = g->longtd = none;
    for (const adexp_field *c = f->child; c; c = c->next) {
        if (c->dict_id == DICT_ID_GEOID) set_once(&g->geoid, c->value);
        if (c->dict_id == DICT_ID_LATTD) set_once(&g->lattd, c->value);
        if (c->dict_id == DICT_ID_LONGTD) set_once(&g->longtd, c->value);
    }
}

static void fill_ref(adexp_ref *r, const adexp_field *f)
{
    for (const adexp_field *c = f->child; c; c = c->next) {
        if (c->dict_id == DICT_ID_SENDER) set_once(&r->sender_fac, leaf_value(c));
        if (c->dict_id == DICT_ID_RECVR) set_once(&r->recvr_fac, leaf_value(c));
        if (c->dict_id == DICT_ID_SEQNUM) set_once(&r->seqnum, c->value);
    }
}

static void fill_coordata(adexp_coordata *cd, const adexp_field *f)
{
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

/* Where the repeated kinds go: one arena block sized by the counting walk. */
typedef struct view_arrays {
    adexp_point *pts;
    adexp_estdata *est;
    adexp_geo *geo;
    adexp_slice *addr;
    adexp_slice *slices[ACT_REGUL + 1];    /* by action: EETFIR, SPEED, REGUL */
    size_t n[ACT_ARRAYS];                  /* items so far, by action */
} view_arrays;

static size_t count_items(const adexp_field *list, unsigned id)
{
    size_t n = 0;
    for (const adexp_field *c = list->child; c; c = c->next)
        n += c->dict_id == id;
    return n;
}

/* The first walk: how many items of each repeated kind. */
static void count_view(const adexp_field *f, size_t *n)
{
    for (; f; f = f->next) {
        unsigned a = BY_ID(view_action, f);
        if (a == ACT_NONE || a >= ACT_ARRAYS)
            continue;
        n[a] += a == ACT_ADDR     ? count_items(f, DICT_ID_FAC)
                : a == ACT_RTEPTS ? count_items(f, DICT_ID_PT)
                                  : 1;
    }
}

/* One block for all the arrays, not zeroed: every item is written whole.
 * Entry sizes are multiples of 16, so each part stays aligned. */
static int place_arrays(view_arrays *w, const size_t *n, adexp_arena *arena)
{
    size_t bytes = n[ACT_RTEPTS] * sizeof(adexp_point) +
                   n[ACT_ESTDATA] * sizeof(adexp_estdata) + n[ACT_GEO] * sizeof(adexp_geo) +
                   (n[ACT_ADDR] + n[ACT_EETFIR] + n[ACT_SPEED] + n[ACT_REGUL]) * sizeof(adexp_slice);
    if (bytes == 0)
        return 1;              /* no array: no arithmetic on a null pointer */
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

/* One field of a repeated kind into its array. */
static void add_repeated(view_arrays *w, const adexp_field *f, unsigned a)
{
    if (a <= ACT_REGUL) {
        w->slices[a][w->n[a]++] = f->value;
    } else if (a == ACT_ESTDATA) {
        fill_estdata(&w->est[w->n[a]++], f);
    } else if (a == ACT_GEO) {
        fill_geo(&w->geo[w->n[a]++], f);
    } else {
        for (const adexp_field *c = f->child; c; c = c->next) {
            if (a == ACT_ADDR && c->dict_id == DICT_ID_FAC)
                w->addr[w->n[a]++] = c->value;
            else if (a == ACT_RTEPTS && c->dict_id == DICT_ID_PT)
                fill_point(&w->pts[w->n[a]++], c);
        }
    }
}

/* The second walk: single fields, the first REFDATA, MSGREF and COORDATA,
 * and the repeated kinds into their arrays (sized by count_view; w == NULL
 * when there are none). */
static void fill_view(adexp_view *v, view_arrays *w, const adexp_field *f)
{
    for (; f; f = f->next) {
        unsigned a = BY_ID(view_action, f);
        if (a >= ACT_SINGLE)
            set_once(slice_at(v, a - ACT_SINGLE), f->value);
        else if (a == ACT_NONE)
            continue;
        else if (a < ACT_ARRAYS) {
            if (w)
                add_repeated(w, f, a);
        } else if (a == ACT_REFDATA) {
            if (!v->has_refdata++)
                fill_ref(&v->refdata, f);
        } else if (a == ACT_MSGREF) {
            if (!v->has_msgref++)
                fill_ref(&v->msgref, f);
        } else if (!v->has_coordata++) {
            fill_coordata(&v->coordata, f);
        }
    }
}

/* Store the arrays and their counts in the view; an empty one is NULL. */
static void set_arrays(adexp_view *v, const view_arrays *w)
{
    const size_t *n = w->n;
    v->rtepts = n[ACT_RTEPTS] ? w->pts : NULL;
    v->n_rtepts = n[ACT_RTEPTS];
    v->estdata = n[ACT_ESTDATA] ? w->est : NULL;
    v->n_estdata = n[ACT_ESTDATA];
    v->geo = n[ACT_GEO] ? w->geo : NULL;
    v->n_geo = n[ACT_GEO];
    v->addr.v = n[ACT_ADDR] ? w->addr : NULL;
    v->addr.n = n[ACT_ADDR];
    v->eetfir.v = n[ACT_EETFIR] ? w->slices[ACT_EETFIR] : NULL;
    v->eetfir.n = n[ACT_EETFIR];
    v->speed.v = n[ACT_SPEED] ? w->slices[ACT_SPEED] : NULL;
    v->speed.n = n[ACT_SPEED];
    v->regul.v = n[ACT_REGUL] ? w->slices[ACT_REGUL] : NULL;
    v->regul.n = n[ACT_REGUL];
}

/* msg->view is zero on entry: adexp_parser_next clears the whole msg. If the
 * arena runs out, the arrays are left empty (the single fields are filled). */
int adexp_view_build(adexp_msg *msg, adexp_arena *arena)
{
    view_arrays w = {0};
    size_t n[ACT_ARRAYS] = {0};
    count_view(msg->fields, n);
    /* every count is at most msg->nfields, so the sizes cannot wrap */
    int ok = msg->nfields <= SIZE_MAX / sizeof(adexp_point) && place_arrays(&w, n, arena);
    fill_view(&msg->view, ok ? &w : NULL, msg->fields);
    if (ok)
        set_arrays(&msg->view, &w);
    return ok;
}
