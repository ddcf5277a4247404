/* The typed view: the most used fields, read off the field tree after a
 * message is parsed. Single fields keep their first occurrence; repeated ones
 * become arrays in the arena. */
#include <string.h>

#include "adexp.h"
#include "dict_ids.h"
#include "internal.h"

static adexp_slice *single_slot(adexp_view *v, unsigned id)
{
    switch (id) {
    case DICT_ID_TITLE: return &v->title;
    case DICT_ID_ARCID: return &v->arcid;
    case DICT_ID_ADEP: return &v->adep;
    case DICT_ID_ADES: return &v->ades;
    case DICT_ID_ARCTYP: return &v->arctyp;
    case DICT_ID_EOBT: return &v->eobt;
    case DICT_ID_EOBD: return &v->eobd;
    case DICT_ID_IFPLID: return &v->ifplid;
    case DICT_ID_SSRCODE: return &v->ssrcode;
    case DICT_ID_FLTRUL: return &v->fltrul;
    case DICT_ID_FLTTYP: return &v->flttyp;
    case DICT_ID_WKTRC: return &v->wktrc;
    case DICT_ID_CEQPT: return &v->ceqpt;
    case DICT_ID_SEQPT: return &v->seqpt;
    case DICT_ID_RFL: return &v->rfl;
    case DICT_ID_ROUTE: return &v->route;
    case DICT_ID_ALTRNT1: return &v->altrnt1;
    case DICT_ID_ALTRNT2: return &v->altrnt2;
    case DICT_ID_REG: return &v->reg;
    case DICT_ID_OPR: return &v->opr;
    case DICT_ID_PBN: return &v->pbn;
    case DICT_ID_MSGTXT: return &v->msgtxt;
    case DICT_ID_COMMENT: return &v->comment;
    case DICT_ID_FILTIM: return &v->filtim;
    case DICT_ID_ORGNID: return &v->orgnid;
    case DICT_ID_CTOT: return &v->ctot;
    case DICT_ID_ALTNZ: return &v->altnz;
    default: return NULL;
    }
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

static void fill_point(adexp_point *pt, const adexp_field *f)
{
    for (const adexp_field *c = f->child; c; c = c->next) {
        adexp_slice v = leaf_value(c);
        switch (c->dict_id) {
        case DICT_ID_PTID: set_once(&pt->ptid, v); break;
        case DICT_ID_FL: set_once(&pt->fl, v); break;
        case DICT_ID_ETO: set_once(&pt->eto, v); break;
        case DICT_ID_TO: set_once(&pt->to, v); break;
        case DICT_ID_SFL: set_once(&pt->sfl, v); break;
        case DICT_ID_LATTD: set_once(&pt->lattd, v); break;
        case DICT_ID_LONGTD: set_once(&pt->longtd, v); break;
        default: break;
        }
    }
}

static void fill_estdata(adexp_estdata *e, const adexp_field *f)
{
    adexp_point pt;
    memset(&pt, 0, sizeof pt);
    fill_point(&pt, f);
    e->ptid = pt.ptid;
    e->eto = pt.eto;
    e->fl = pt.fl;
    e->sfl = pt.sfl;
}

static void fill_geo(adexp_geo *g, const adexp_field *f)
{
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

static size_t count_items(const adexp_field *list, unsigned id)
{
    size_t n = 0;
    for (const adexp_field *c = list->child; c; c = c->next)
        n += c->dict_id == id;
    return n;
}

/* Counts of the repeated parts, to size the arrays before filling them. */
typedef struct view_counts {
    size_t addr, eetfir, speed, regul, rtepts, estdata, geo;
} view_counts;

static void count_view(const adexp_msg *msg, view_counts *n)
{
    memset(n, 0, sizeof *n);
    for (const adexp_field *f = msg->fields; f; f = f->next) {
        switch (f->dict_id) {
        case DICT_ID_ADDR: n->addr += count_items(f, DICT_ID_FAC); break;
        case DICT_ID_EETFIR: n->eetfir++; break;
        case DICT_ID_SPEED: n->speed++; break;
        case DICT_ID_REGUL: n->regul++; break;
        case DICT_ID_RTEPTS: n->rtepts += count_items(f, DICT_ID_PT); break;
        case DICT_ID_ESTDATA: n->estdata++; break;
        case DICT_ID_GEO: n->geo++; break;
        default: break;
        }
    }
}

static void *alloc_array(adexp_arena *arena, size_t n, size_t size, int *ok)
{
    if (n == 0)
        return NULL;
    void *p = n <= SIZE_MAX / size ? adexp_arena_alloc(arena, n * size) : NULL;
    if (!p)
        *ok = 0;
    else
        memset(p, 0, n * size);
    return p;
}

static void add_slice(adexp_slices *s, adexp_slice *store, adexp_slice v)
{
    if (store)
        store[s->n++] = v;
}

int adexp_view_build(adexp_msg *msg, adexp_arena *arena)
{
    adexp_view *v = &msg->view;
    view_counts n;
    int ok = 1;
    count_view(msg, &n);
    adexp_slice *addr = alloc_array(arena, n.addr, sizeof *addr, &ok);
    adexp_slice *eetfir = alloc_array(arena, n.eetfir, sizeof *eetfir, &ok);
    adexp_slice *speed = alloc_array(arena, n.speed, sizeof *speed, &ok);
    adexp_slice *regul = alloc_array(arena, n.regul, sizeof *regul, &ok);
    adexp_point *pts = alloc_array(arena, n.rtepts, sizeof *pts, &ok);
    adexp_estdata *est = alloc_array(arena, n.estdata, sizeof *est, &ok);
    adexp_geo *geo = alloc_array(arena, n.geo, sizeof *geo, &ok);
    v->addr.v = addr;
    v->eetfir.v = eetfir;
    v->speed.v = speed;
    v->regul.v = regul;
    v->rtepts = pts;
    v->estdata = est;
    v->geo = geo;
    for (const adexp_field *f = msg->fields; f; f = f->next) {
        adexp_slice *slot = single_slot(v, f->dict_id);
        if (slot) {
            set_once(slot, f->value);
            continue;
        }
        switch (f->dict_id) {
        case DICT_ID_EETFIR: add_slice(&v->eetfir, eetfir, f->value); break;
        case DICT_ID_SPEED: add_slice(&v->speed, speed, f->value); break;
        case DICT_ID_REGUL: add_slice(&v->regul, regul, f->value); break;
        case DICT_ID_ESTDATA:
            if (est)
                fill_estdata(&est[v->n_estdata++], f);
            break;
        case DICT_ID_GEO:
            if (geo)
                fill_geo(&geo[v->n_geo++], f);
            break;
        case DICT_ID_ADDR:
            for (const adexp_field *c = f->child; c; c = c->next)
                if (c->dict_id == DICT_ID_FAC)
                    add_slice(&v->addr, addr, c->value);
            break;
        case DICT_ID_RTEPTS:
            for (const adexp_field *c = f->child; c; c = c->next)
                if (c->dict_id == DICT_ID_PT && pts)
                    fill_point(&pts[v->n_rtepts++], c);
            break;
        case DICT_ID_REFDATA:
            if (!v->has_refdata++)
                fill_ref(&v->refdata, f);
            break;
        case DICT_ID_MSGREF:
            if (!v->has_msgref++)
                fill_ref(&v->msgref, f);
            break;
        case DICT_ID_COORDATA:
            if (!v->has_coordata++)
                fill_coordata(&v->coordata, f);
            break;
        default:
            break;
        }
    }
    return ok;
}
