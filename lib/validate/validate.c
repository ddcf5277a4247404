/* adexp_validate: the walk over a parsed message. Each known basic field's
 * value is matched against its syntax (validate_match.c); each compound and
 * list is checked for the subfields its syntax makes mandatory and for the
 * ones it does not allow; a subfield outside any compound is misplaced.
 * Findings carry the field's path, built only when a finding is made. */
#include <string.h>

#include "adexp.h"
#include "lines.h"
#include "dict.h"
#include "dict_ids.h"
#include "dict_ext.h"
#include "field_word.h"
#include "validate_internal.h"
#include "validate_table.h"

static const char *const finding_names[ADEXP_V_CODE_COUNT] = {
    [ADEXP_V_BAD_VALUE] = "BAD_VALUE",
    [ADEXP_V_OUT_OF_RANGE] = "OUT_OF_RANGE",
    [ADEXP_V_MISSING_SUBFIELD] = "MISSING_SUBFIELD",
    [ADEXP_V_NOT_ALLOWED] = "NOT_ALLOWED",
    [ADEXP_V_MISPLACED] = "MISPLACED",
    [ADEXP_V_UNEXPECTED_VALUE] = "UNEXPECTED_VALUE",
    [ADEXP_V_NOT_CHECKED] = "NOT_CHECKED",
};

const char *adexp_finding_name(adexp_finding_code c)
{
    return (unsigned)c < ADEXP_V_CODE_COUNT ? finding_names[c] : "UNKNOWN";
}

void adexp_findings_init(adexp_findings *out)
{
    memset(out, 0, sizeof *out);
}

/* A field's place: its siblings (for its [n]) and its parent's place. */
typedef struct place {
    const struct place *up;
    const adexp_field *f, *first;
    int in_list;
} place;

typedef struct walk {
    const adexp_msg *msg;
    adexp_arena *arena;
    adexp_findings *out;
    const char *base;          /* the parser's buffer: offsets count from it */
    int nomem;
    vmatch m;
    char *spare;               /* room for paths and messages, taken with the
                                  findings' first vector (one arena call) */
    size_t spare_len;
} walk;

/* The spare room of the findings' first vector holds this many bytes of
 * paths and sentences. */
#define WALK_SPARE 192

/* n bytes for a path or a sentence: from the spare room while it lasts. */
static char *take(walk *w, size_t n)
{
    if (n <= w->spare_len) {
        char *p = w->spare;
        w->spare += n;
        w->spare_len -= n;
        return p;
    }
    return adexp_arena_alloc(w->arena, n);
}

/* ---------------------------------------------------------------- findings */

/* Keywords are short: compared in place, not by a call for each sibling. */
static int same_keyword(adexp_slice a, adexp_slice b)
{
    if (a.len != b.len)
        return 0;
    for (size_t i = 0; i < a.len; i++)
        if (a.ptr[i] != b.ptr[i])
            return 0;
    return 1;
}

/* "[n]" written before end (no printf: a finding's path may have several);
 * returns where it starts. */
static char *put_rank(char *end, size_t r)
{
    *--end = ']';
    do {
        *--end = (char)('0' + r % 10);
        r /= 10;
    } while (r);
    *--end = '[';
    return end;
}

/* The field's [n]: its rank among the siblings of its keyword, from 1, or
 * 0 when it is the only one and not a list item. A keyword has one
 * dictionary id and a known id one keyword (the parser and the builder
 * look keywords up as they are written): only unknown fields' keywords
 * are compared. */
static size_t rank(const place *pl)
{
    size_t before = 0, all = 0;
    const adexp_slice kw = pl->f->keyword;
    const unsigned id = pl->f->dict_id;
    for (const adexp_field *s = pl->first; s; s = s->next) {
        if (s->dict_id == id &&
            (s == pl->f || id != ADEXP_DICT_NONE || same_keyword(s->keyword, kw))) {
            all++;
            if (s == pl->f)
                before = all;
            if (before && all > 1)         /* the answer is known */
                return before;
        }
    }
    return all > 1 || pl->in_list ? before : 0;
}

/* The decimal digits of r. */
static size_t digits(size_t r)
{
    size_t n = 1;
    for (; r >= 10; r /= 10)
        n++;
    return n;
}

/* The field's path ("RTEPTS/PT[1]/ETO"), in the arena: each level's rank
 * taken once, the exact length counted, then written from the start. A
 * path deeper than PATH_DEPTH levels has its ranks taken again as it is
 * written. */
#define PATH_DEPTH 16
static char *path(walk *w, const place *pl)
{
    size_t ranks[PATH_DEPTH], d = 0, n = 0;
    for (const place *q = pl; q; q = q->up, d++) {
        size_t r = rank(q);
        if (d < PATH_DEPTH)
            ranks[d] = r;
        n += q->f->keyword.len + 1 + (r ? digits(r) + 2 : 0);   /* '/' or the NUL */
    }
    char *buf = take(w, n);
    if (!buf)
        return NULL;
    /* Written from the end (the field) to the start (the top). */
    char *p = buf + n;
    *--p = '\0';
    size_t k = 0;
    for (; pl; pl = pl->up, k++) {
        size_t r = k < PATH_DEPTH ? ranks[k] : rank(pl);
        if (r)
            p = put_rank(p, r);
        p -= pl->f->keyword.len;
        memcpy(p, pl->f->keyword.ptr, pl->f->keyword.len);
        if (pl->up)
            *--p = '/';
    }
    return buf;
}

/* Line and column of off, counted on from the last answer for this buffer
 * (back from it when a finding comes before the previous one, as a
 * compound's missing subfield after its subfields' findings): one forward
 * scan of the buffer in all. The cursor is kept in the public
 * adexp_findings, field by field. */
static void locate(walk *w, size_t off, adexp_finding *fd)
{
    adexp_findings *o = w->out;
    if (o->no_lines) {
        fd->line = fd->column = 0;
        return;
    }
    lines_cursor c = {0, o->lc_off, o->lc_bol, o->lc_line};
    if (o->lc_base != w->base || w->msg->index < o->lc_index) {
        o->lc_base = w->base;
        c = lines_cursor_of(w->base, w->msg->offset + w->msg->length);
    }
    lines_locate(&c, w->base, w->msg->offset + w->msg->length, off, &fd->line, &fd->column);
    o->lc_off = c.off;
    o->lc_bol = c.bol;
    o->lc_line = c.line;
    o->lc_index = w->msg->index;
}

/* fmt's one %s replaced by detail, in the arena (no printf: findings may
 * be many). */
static const char *sentence(walk *w, const char *fmt, const char *detail)
{
    const char *at = strstr(fmt, "%s");
    size_t head = (size_t)(at - fmt), dl = strlen(detail), tail = strlen(at + 2);
    char *msg = take(w, head + dl + tail + 1);
    if (!msg)
        return NULL;
    memcpy(msg, fmt, head);
    memcpy(msg + head, detail, dl);
    memcpy(msg + head + dl, at + 2, tail + 1);
    return msg;
}

static adexp_finding *grow(walk *w)
{
    adexp_findings *o = w->out;
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 8, spare = o->cap ? 0 : WALK_SPARE;
        adexp_finding *v = adexp_arena_alloc(w->arena, cap * sizeof *v + spare);
        if (!v)
            return NULL;
        if (spare) {
            w->spare = (char *)(v + cap);
            w->spare_len = spare;
        }
        if (o->n)
            memcpy(v, o->v, o->n * sizeof *v);
        o->v = v;
        o->cap = cap;
    }
    return &o->v[o->n];
}

/* Records a finding at pl's field; value: the text at fault (ptr NULL: the
 * field itself), at: where in the buffer the finding is (SIZE_MAX: at the
 * value, or for an empty value at its field). The message is fmt with its
 * one %s replaced by detail, or fmt itself (a static sentence, not copied)
 * when detail is NULL. */
__attribute__((noinline)) static void add_at(walk *w, const place *pl, adexp_finding_code code,
                                             adexp_slice value, size_t at, const char *expected,
                                             const char *fmt, const char *detail)
{
    if (w->nomem)
        return;
    adexp_finding *fd = grow(w);
    char *field = fd ? path(w, pl) : NULL;
    const char *msg = detail ? sentence(w, fmt, detail) : fmt;
    if (!field || !msg) {
        w->nomem = 1;
        return;
    }
    fd->code = code;
    fd->field = field;
    fd->message = msg;
    fd->expected = expected ? expected : "";
    fd->value = value;
    if (at == SIZE_MAX)
        at = value.len ? (size_t)(value.ptr - w->base) : pl->f->offset;
    fd->offset = at;
    locate(w, fd->offset, fd);
    w->out->n++;
}

static void add(walk *w, const place *pl, adexp_finding_code code, adexp_slice value,
                const char *expected, const char *fmt, const char *detail)
{
    add_at(w, pl, code, value, SIZE_MAX, expected, fmt, detail);
}

/* ---------------------------------------------------------------- checks */

/* Where the first byte of s[0..n) outside the ADEXP character set is
 * (LIM_CHAR and '-'), n if none. */
static size_t foreign_char(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (vlim_char[(unsigned char)s[i]] || s[i] == '-'))
        i++;
    return i;
}

/* A value the fast path rejected, matched again to say why: a character
 * outside the ADEXP character set first (reported at that character),
 * else what the matcher says. Out of line. */
__attribute__((noinline, cold)) static void check_value(walk *w, const place *pl,
                                                        const vrule *r)
{
    const adexp_field *f = pl->f;
    size_t at = f->value.ptr ? foreign_char(f->value.ptr, f->value.len) : 0;
    if (at < f->value.len) {
        add_at(w, pl, ADEXP_V_BAD_VALUE, f->value, (size_t)(f->value.ptr + at - w->base),
               vstrings[r->syntax], "a character outside the ADEXP character set (S31 5.1)",
               NULL);
        return;
    }
    const char *s = f->value.ptr ? f->value.ptr : "";
    const char *why;
    unsigned kind = (vwalk[r - vrules] >> VR_KIND_SHIFT) & VR_KIND_MASK;
    int code = kind == VK_DT12 ? vexplain_dt12(&w->m, r, s, f->value.len, &why)
                               : vexplain(&w->m, r, s, f->value.len, &why);
    const char *syntax = vstrings[r->syntax];
    if (code == ADEXP_V_NOT_CHECKED)
        add(w, pl, ADEXP_V_NOT_CHECKED, f->value, syntax,
            "value too long or too intricate to check", NULL);
    else if (code == ADEXP_V_OUT_OF_RANGE)
        add(w, pl, ADEXP_V_OUT_OF_RANGE, f->value, syntax, why, NULL);
    else if (code == ADEXP_V_BAD_VALUE)
        add(w, pl, ADEXP_V_BAD_VALUE, f->value, syntax,
            "value does not match its syntax", NULL);
}

/* The first part of formula node id that the subfields p do not satisfy,
 * or 0 when they all are. */
unsigned vfirst_missing(const present *p, unsigned id)
{
    const vnode *n = &vnodes[id];
    switch (n->op) {
    case VN_FIELD:
        return has(p, n->a) ? 0 : id;
    case VN_ALL:
        for (unsigned i = 0; i < n->b; i++) {
            unsigned m = vfirst_missing(p, vkids[n->a + i]);
            if (m)
                return m;
        }
        return 0;
    case VN_ANY:
        for (unsigned i = 0; i < n->b; i++)
            if (!vfirst_missing(p, vkids[n->a + i]))
                return 0;
        return id;
    default:
        return 0;
    }
}

/* p: the subfields present. All of vreq[r->req] present is the usual
 * case; otherwise the formula names what is missing. */
static void check_subfields(walk *w, const place *pl, const vrule *r, const present *p)
{
    if (r->req && has_all(p, vreq[r->req]))
        return;
    unsigned m = vfirst_missing(p, r->presence);
    if (!m)
        return;
    const vnode *n = &vnodes[m];
    adexp_slice none = {NULL, 0};
    if (n->op == VN_FIELD)
        add(w, pl, ADEXP_V_MISSING_SUBFIELD, none, vstrings[r->syntax],
            "missing subfield %s", dict_table[n->a].keyword);
    else
        add(w, pl, ADEXP_V_MISSING_SUBFIELD, none, vstrings[r->syntax],
            "missing one of %s", vstrings[n->c]);
}

static present visit_all(walk *w, const adexp_field *first, const place *up,
                         const dict_entry *parent);
static void visit_lax(walk *w, const adexp_field *first, const place *up);

/* Whether a field of vwalk word wb may stand in the compound at place
 * compound although the compound's syntax does not name it: a primary
 * field in a list's element ("inclusion within a list field is the only
 * occasion when a primary field may be used as a subfield", S31 4.3.7,
 * whose example 3 is -PT -PTID CMB -ETO 9305091430 -RFL F370), as the
 * parser reads it (grammar.h's grammar_in_compound). A subfield there is
 * still not allowed (LATTD in a PT: doc/validation-decisions.md). */
static inline int element_takes(const place *compound, int is_subfield)
{
    return compound && compound->in_list && !is_subfield;
}

/* A compound written as a basic field (-CFL F190): where the specification
 * writes it so (gen_validate.py's PLAIN_FORMS), its value is checked
 * against that form (r->value); else, or beside subfields, one finding.
 * Out of line, rare. */
__attribute__((noinline, cold)) static void plain_compound(walk *w, const place *pl,
                                                           const vrule *r,
                                                           const dict_entry *e)
{
    const adexp_field *f = pl->f;
    if (r->value && !f->child) {
        if (!vrule_accepts((unsigned)(r - vrules), f->value.ptr, f->value.len))
            check_value(w, pl, r);
        return;
    }
    add(w, pl, ADEXP_V_UNEXPECTED_VALUE, f->value, vstrings[r->syntax],
        "a value where %s wants its subfields", e->keyword);
}

/* A field where the structure says it may not be: out of line, rare. */
__attribute__((noinline, cold)) static void misplaced(walk *w, const place *pl,
                                                      const dict_entry *parent)
{
    adexp_slice none = {NULL, 0};
    if (parent)
        add(w, pl, ADEXP_V_NOT_ALLOWED, none, "", "not a subfield of %s", parent->keyword);
    else
        add(w, pl, ADEXP_V_MISPLACED, none, "",
            "a subfield outside any compound or list", NULL);
}

/* A compound or list of the built-in dictionary (with an extended one, its
 * entry there): its own value, its subfields, then its fields. */
static inline __attribute__((always_inline)) void visit_structured(walk *w, const place *pl,
                                                                  const vrule *r)
{
    const adexp_field *f = pl->f;
    const dict_entry *e = dict_ext_entry(w->out->dictionary, f->dict_id);
    int as_basic = f->value.len && e->kind == ADEXP_COMPOUND;
    if (as_basic)
        plain_compound(w, pl, r, e);
    /* A list of whole messages holds top-level fields. */
    present p = visit_all(w, f->child, pl, (e->flags & DICT_MSG_LIST) ? NULL : e);
    if (!as_basic && r->presence)
        check_subfields(w, pl, r, &p);
}

/* A basic field's value (the rule of dictionary entry id): the fast path,
 * then the reasons out of line. */
static inline __attribute__((always_inline)) void visit_basic(walk *w, const place *pl,
                                                             unsigned id)
{
    const adexp_field *f = pl->f;
    if (!vrule_accepts(id, f->value.ptr, f->value.len))
        check_value(w, pl, &vrules[id]);
}

/* A field of an extended dictionary (dict_ext_entry's e): where it may be;
 * past the built-in ids (or with another value class), its structure and
 * the value check of a built-in field of its value class, if any; 1 when
 * the built-in id's own rule is still to apply. */
static int visit_extended(walk *w, const place *pl, const dict_entry *e,
                          const dict_entry *parent, present *p)
{
    unsigned b = e->sub_bit;
    p->w[b >> 6] |= (uint64_t)1 << (b & 63);
    int is_subfield = e->level == DICT_SUBFIELD || e->level == DICT_RESERVED_SUBFIELD;
    if (parent ? !dict_row_allows(parent->row, e) &&
                     !(parent->kind == ADEXP_COMPOUND && element_takes(pl->up, is_subfield))
               : is_subfield)
        misplaced(w, pl, parent);
    unsigned as = w->out->dictionary->check_as[e->id];
    if (e->id < dict_count && as == e->id)
        return 1;
    if (e->kind != ADEXP_BASIC)
        visit_all(w, pl->f->child, pl, (e->flags & DICT_MSG_LIST) ? NULL : e);
    else if (as != ADEXP_DICT_NONE)      /* a built-in field's value class */
        visit_basic(w, pl, as);
    return 0;
}

/* The fields from first on, in the compound or list parent (NULL: at the
 * top of a message); returns the subfields met (for the parent's formula).
 * The usual case, a valid basic field of the built-in dictionary, stays in
 * this loop, and reads only its rule (vrule.walk holds what it needs of the
 * dictionary entry); with an extended dictionary the entry is read. */
static present visit_all(walk *w, const adexp_field *first, const place *up,
                         const dict_entry *parent)
{
    place pl = {up, NULL, first, parent && parent->kind == ADEXP_LIST};
    const uint64_t *row = parent ? parent->row : NULL;
    const adexp_dictionary *d = w->out->dictionary;
    present p = {{0}};
    for (const adexp_field *f = first; f; f = f->next) {
        pl.f = f;
        unsigned id = f->dict_id;
        if (d) {
            const dict_entry *e = dict_ext_entry(d, id);
            if (!e) {
                if (f->child)
                    visit_lax(w, f->child, &pl);
                continue;
            }
            if (!visit_extended(w, &pl, e, parent, &p))
                continue;
            if (e->kind != ADEXP_BASIC)
                visit_structured(w, &pl, &vrules[id]);
            else
                visit_basic(w, &pl, id);
            continue;
        }
        if (id >= dict_count) {                /* unknown: its fields only */
            if (f->child)
                visit_lax(w, f->child, &pl);
            continue;
        }
        const vrule *r = &vrules[id];
        unsigned wb = vwalk[id], b = wb & VR_SUB_BIT;
        uint64_t bit = (uint64_t)1 << (b & 63);   /* the same word and bit twice */
        p.w[b >> 6] |= bit;
        if (row ? !(row[b >> 6] & bit) &&
                      !(parent->kind == ADEXP_COMPOUND && element_takes(up, wb & VR_SUBFIELD))
                : (wb & VR_SUBFIELD) != 0)
            misplaced(w, &pl, parent);
        if (wb & VR_STRUCTURED)
            visit_structured(w, &pl, r);
        else
            visit_basic(w, &pl, id);
    }
    return p;
}

/* The fields inside an unknown field, whose structure is not known: values
 * and known compounds checked, no place checked. */
static void visit_lax(walk *w, const adexp_field *first, const place *up)
{
    place pl = {up, NULL, first, 0};
    for (const adexp_field *f = first; f; f = f->next) {
        pl.f = f;
        const dict_entry *e = dict_ext_entry(w->out->dictionary, f->dict_id);
        if (!e) {
            if (f->child)
                visit_lax(w, f->child, &pl);
            continue;
        }
        const adexp_dictionary *d = w->out->dictionary;
        unsigned as = d ? d->check_as[e->id] : e->id;
        if (as != e->id) {                     /* an extension's */
            if (e->kind != ADEXP_BASIC)
                visit_all(w, f->child, &pl, (e->flags & DICT_MSG_LIST) ? NULL : e);
            else if (as != ADEXP_DICT_NONE)
                visit_basic(w, &pl, as);
            continue;
        }
        if (e->kind != ADEXP_BASIC)
            visit_structured(w, &pl, &vrules[e->id]);
        else
            visit_basic(w, &pl, e->id);
    }
}

/* ------------------------------------------------ the built-in dictionary */

/* With the built-in dictionary (the usual case) the walk reads one word of
 * vwalk per field; compounds and lists and the rare cases are out of line.
 * It finds what visit_all finds, in the same order. */

static void visit_compound(walk *w, const place *pl, unsigned id);

/* The usual shapes of the most frequent compounds: a route point of PTID
 * FL ETO or of PTID alone, GEO of GEOID LATTD LONGTD, ESTDATA of PTID ETO
 * FL: basic subfields in this order, which their compound (not a list)
 * allows and which satisfy its formula (validate_test.c's
 * usual_shapes_hold checks it). Such a compound has nothing to report but
 * its values: its subfields' places and its formula need no test, and their
 * fast paths are vwalk's words as constants (VWALK_*), which fold.
 * validate_test.c compiles this file again with VALIDATE_USUAL 0 and
 * compares the two. */
#ifndef VALIDATE_USUAL
#define VALIDATE_USUAL 1
#endif
#define USUAL_IDS(a, b, c, A, B, C)                                                        \
    ((a)->dict_id == DICT_ID_##A && (b)->dict_id == DICT_ID_##B && (c)->dict_id == DICT_ID_##C)

/* pl's field, of a usual shape, where the fast path of its subfield x
 * refused x's value, the subfields before x valid: x and the subfields
 * after it checked, each refused value reported at its place (visit_kids'
 * findings: x's first). 1. Out of line. */
__attribute__((noinline, cold)) static int usual_refused(walk *w, const place *pl,
                                                         const adexp_field *x)
{
    place kp = {pl, x, pl->f->child, 0};
    check_value(w, &kp, &vrules[x->dict_id]);
    for (const adexp_field *k = x->next; k; k = k->next) {
        kp.f = k;
        if (!vrule_accepts(k->dict_id, k->value.ptr, k->value.len))
            check_value(w, &kp, &vrules[k->dict_id]);
    }
    return 1;
}

/* Subfield x (a K) of a usual shape: its value by K's fast path, else the
 * shape's answer is usual_refused's. */
#define USUAL_VALUE(x, K)                                                                  \
    if (!vwalk_accepts(VWALK_##K, DICT_ID_##K, (x)->value.ptr, (x)->value.len))            \
        return usual_refused(w, pl, x)

/* 1: pl's field (the compound id) is of a usual shape and its values are
 * checked; 0: the general walk is to visit it. */
static inline __attribute__((always_inline)) int usual_shape(walk *w, const place *pl,
                                                            unsigned id)
{
    const adexp_field *f = pl->f, *a = f->child, *b, *c;
    if (!VALIDATE_USUAL || (id != DICT_ID_PT && id != DICT_ID_GEO && id != DICT_ID_ESTDATA) ||
        f->value.len || !a)
        return 0;
    b = a->next;
    if (id == DICT_ID_PT && !b) {
        if (a->dict_id != DICT_ID_PTID)
            return 0;
        USUAL_VALUE(a, PTID);
        return 1;
    }
    if (!b || !(c = b->next) || c->next)
        return 0;
    if (id == DICT_ID_PT) {
        if (!USUAL_IDS(a, b, c, PTID, FL, ETO))
            return 0;
        USUAL_VALUE(a, PTID);
        USUAL_VALUE(b, FL);
        USUAL_VALUE(c, ETO);
    } else if (id == DICT_ID_GEO) {
        if (!USUAL_IDS(a, b, c, GEOID, LATTD, LONGTD))
            return 0;
        USUAL_VALUE(a, GEOID);
        USUAL_VALUE(b, LATTD);
        USUAL_VALUE(c, LONGTD);
    } else {
        if (!USUAL_IDS(a, b, c, PTID, ETO, FL))
            return 0;
        USUAL_VALUE(a, PTID);
        USUAL_VALUE(b, ETO);
        USUAL_VALUE(c, FL);
    }
    return 1;
}

/* A field of dictionary entry id (vwalk word wb) in its place, and the
 * siblings after it of the same entry (a route's points, an ADDR's FACs):
 * its presence and place are theirs, so only their values and bodies are
 * visited. Returns the last of them. */
static const adexp_field *same_run(walk *w, place *pl, const adexp_field *f, uint32_t wb,
                                   unsigned id);

/* The subfields a (-PTID), b (-FL) and c (-ETO) of a route point, their
 * values of their usual forms (a point of 2 to 5 letters and digits, a
 * flight level F and three digits, a valid YYMMDDHHMMSS), tested together
 * without a branch for each: 1 means usual_shape would find nothing; 0,
 * that it is to say. *head: the first eight bytes of the last ETO found
 * valid (0: none), which a route's next points mostly share: vf_dt12's
 * ranges read only those, so an ETO that starts with them needs only its
 * minutes and seconds read. */
static inline __attribute__((always_inline)) int
usual_point_values(const adexp_field *a, const adexp_field *b, const adexp_field *c,
                   uint64_t *head, int whole)
{
    const char *s = a->value.ptr, *t = c->value.ptr;
    size_t n = a->value.len;
    if (n - 2 > 3 || b->value.len != 4 || c->value.len != 12)
        return 0;
    /* the level, and the ETO's minutes and seconds; the point's first eight
     * bytes where the parser read it whole (its level and ETO are after
     * it in the same text), else its bytes 0, 1, n/2, n-2 and n-1 (each of
     * them for n from 2 to 5), the rest '0' */
    if (whole ? !vf_point_bytes_n(s, b->value.ptr, t + 8, n)
              : !vf_point_bytes(vf_load2(s) | vf_load2(s + n - 2) << 16 |
                                    (uint64_t)(unsigned char)s[n >> 1] << 32 |
                                    0x303030ull << 40,
                                vf_load4(b->value.ptr) | vf_load4(t + 8) << 32))
        return 0;
    uint64_t h = vf_load8(t);
    if (h == *head)
        return 1;
    if (!vf_dt12(t, 12))
        return 0;
    *head = h;
    return 1;
}

/* A route point -PT -PTID -FL -ETO whose values are of their usual forms
 * (usual_point_values). */
static inline __attribute__((always_inline)) int usual_point(const adexp_field *f,
                                                            uint64_t *head)
{
    const adexp_field *a = f->child, *b, *c;
    if (!VALIDATE_USUAL || f->value.len || !a || !(b = a->next) || !(c = b->next) || c->next ||
        !USUAL_IDS(a, b, c, PTID, FL, ETO))
        return 0;
    return usual_point_values(a, b, c, head, 0);
}

/* name(w, first, up, e, p): the fields of the compound or list e (not a
 * list of messages), from first on, up its place; p: the subfields met; a
 * compound among them visited by visit_structured. pl.f is set only where
 * a field's place is read (a finding, a compound's fields). Defined twice:
 * a compound's fields, whose compounds are visited by a call, and the
 * fields of a compound met at the top, whose compounds' bodies are inlined
 * (a route point in RTEPTS costs no call). */
#define DEFINE_VISIT_KIDS(name, visit_structured)                                          \
    static inline __attribute__((always_inline)) void name(                                \
        walk *w, const adexp_field *first, const place *up, const dict_entry *e,           \
        present *p)                                                                         \
    {                                                                                       \
        place pl = {up, NULL, first, e->kind == ADEXP_LIST};                                \
        const uint64_t *row = e->row;                                                       \
        for (const adexp_field *f = first; f; f = f->next) {                                \
            unsigned id = f->dict_id;                                                       \
            if (id >= DICT_COUNT) {            /* unknown: its fields only */               \
                pl.f = f;                                                                   \
                if (f->child)                                                               \
                    visit_lax(w, f->child, &pl);                                            \
                continue;                                                                   \
            }                                                                               \
            uint32_t wb = vwalk[id];                                                        \
            unsigned b = wb & VR_SUB_BIT;                                                   \
            uint64_t bit = (uint64_t)1 << (b & 63);                                         \
            p->w[b >> 6] |= bit;                                                            \
            if (!(row[b >> 6] & bit) &&                                                     \
                !(e->kind == ADEXP_COMPOUND && element_takes(up, wb & VR_SUBFIELD))) {      \
                pl.f = f;                                                                   \
                misplaced(w, &pl, e);                                                       \
            } else if (VALIDATE_USUAL && f->next && f->next->dict_id == id) {               \
                f = same_run(w, &pl, f, wb, id);                                            \
                continue;                                                                   \
            }                                                                               \
            if (wb & VR_STRUCTURED) {                                                       \
                pl.f = f;                                                                   \
                visit_structured(w, &pl, id);                                               \
            } else if (!vwalk_accepts(wb, id, f->value.ptr, f->value.len)) {               \
                pl.f = f;                                                                   \
                check_value(w, &pl, &vrules[id]);                                           \
            }                                                                               \
        }                                                                                   \
    }

DEFINE_VISIT_KIDS(visit_kids, visit_compound)

/* A compound or list: its own value, its fields (by visit_kids or
 * visit_kids_outer), its subfields' formula. */
#define DEFINE_COMPOUND_BODY(name, kids)                                                    \
    static inline __attribute__((always_inline)) void name(walk *w, const place *pl,       \
                                                           unsigned id)                     \
    {                                                                                       \
        const adexp_field *f = pl->f;                                                       \
        if (usual_shape(w, pl, id))                                                         \
            return;                                                                         \
        const dict_entry *e = &dict_table[id];                                              \
        const vrule *r = &vrules[id];                                                       \
        int as_basic = f->value.len && e->kind == ADEXP_COMPOUND;                           \
        if (as_basic)                                                                       \
            plain_compound(w, pl, r, e);                                                    \
        present p = {{0}};                                                                  \
        if (e->flags & DICT_MSG_LIST)                                                       \
            p = visit_all(w, f->child, pl, NULL);                                           \
        else                                                                                \
            kids(w, f->child, pl, e, &p);                                                   \
        if (!as_basic && r->presence && !has_required(&p, r))                               \
            check_subfields(w, pl, r, &p);                                                  \
    }

DEFINE_COMPOUND_BODY(inner_compound, visit_kids)

/* A route point of no usual shape or values: the general walk, out of
 * line. */
static __attribute__((noinline)) void visit_point(walk *w, place *pl, const adexp_field *f)
{
    pl->f = f;
    inner_compound(w, pl, DICT_ID_PT);
}

/* same_run's loop for a run of route points: a point the parser read whole
 * (field_point_whole) has its values tested with no look at its tree, any other
 * its shape first. Returns the last. */
static __attribute__((noinline)) const adexp_field *point_run(walk *w, place *pl,
                                                               const adexp_field *f)
{
    uint64_t head = 0;
    for (;; f = f->next) {
        const adexp_field *a = f->child;
        if (!(VALIDATE_USUAL && field_point_whole(f) ? usual_point_values(a, a + 1, a + 2, &head, 1)
                                              : usual_point(f, &head)))
            visit_point(w, pl, f);
        if (!f->next || f->next->dict_id != DICT_ID_PT)
            return f;
    }
}

/* The fields from f on while their entry is id: each visited by visit, its
 * value refused or not by accepts (pl->f set where a finding is made). */
#define SAME_RUN(visit)                                                                     \
    for (;; f = f->next) {                                                                  \
        visit;                                                                              \
        if (!f->next || f->next->dict_id != id)                                             \
            return f;                                                                       \
    }
#define SAME_VALUES(accepts)                                                                \
    SAME_RUN(if (!(accepts)) {                                                              \
        pl->f = f;                                                                          \
        check_value(w, pl, &vrules[id]);                                                    \
    })

/* Whether f and the sibling after it are two texts of entry id (vwalk word
 * wb, VK_TEXT) of eight usual bytes each (an ADDR's FACs), which its rule
 * takes: both tested in one vector. */
static inline __attribute__((always_inline)) int usual_text_pair(const adexp_field *f,
                                                                uint32_t wb, unsigned id)
{
    const adexp_field *g = f->next;
    return g && g->dict_id == id && f->value.len == 8 && g->value.len == 8 &&
           (wb >> VR_PARAM_SHIFT) >= 8 && vf_usual_pair8(f->value.ptr, g->value.ptr);
}

/* An -ESTDATA -PTID -ETO -FL whose values are of a route point's usual
 * forms (usual_point_values, *head its ETO's memo). */
static inline __attribute__((always_inline)) int usual_estdata(const adexp_field *f,
                                                              uint64_t *head)
{
    const adexp_field *a = f->child, *b, *c;
    if (f->value.len || !a || !(b = a->next) || !(c = b->next) || c->next ||
        !USUAL_IDS(a, b, c, PTID, ETO, FL))
        return 0;
    return usual_point_values(a, c, b, head, 0);
}

/* same_run's loops for a run of -ESTDATA and of -GEO: each one by
 * inner_compound for that kind alone (its usual shape's test folded for
 * it), an -ESTDATA's values first as a route point's, its ETO's memo kept
 * along the run. Return the last. */
static __attribute__((noinline)) const adexp_field *estdata_run(walk *w, place *pl,
                                                                const adexp_field *f)
{
    uint64_t head = 0;
    unsigned id = DICT_ID_ESTDATA;
    SAME_RUN(pl->f = f; if (!(VALIDATE_USUAL && usual_estdata(f, &head))) inner_compound(w, pl, id))
}

static __attribute__((noinline)) const adexp_field *geo_run(walk *w, place *pl,
                                                            const adexp_field *f)
{
    unsigned id = DICT_ID_GEO;
    SAME_RUN(pl->f = f; inner_compound(w, pl, id))
}

/* Out of line, one loop a kind: the kind's test is inlined there and its
 * choice made once a run. */
static __attribute__((noinline)) const adexp_field *
same_run(walk *w, place *pl, const adexp_field *f, uint32_t wb, unsigned id)
{
    if (id == DICT_ID_PT)
        return point_run(w, pl, f);
    if (id == DICT_ID_ESTDATA)
        return estdata_run(w, pl, f);
    if (id == DICT_ID_GEO)
        return geo_run(w, pl, f);
    if (wb & VR_STRUCTURED)
        SAME_RUN(pl->f = f; inner_compound(w, pl, id))
    switch ((wb >> VR_KIND_SHIFT) & VR_KIND_MASK) {
    case VK_TEXT:
        SAME_RUN(if (usual_text_pair(f, wb, id))
                     f = f->next;
                 else if (!vf_usual_text(wb, f->value.ptr, f->value.len) &&
                          !vf_text(wb, f->value.ptr, f->value.len)) {
                     pl->f = f;
                     check_value(w, pl, &vrules[id]);
                 })
    /* the usual words inlined in their loop; any other value by the call
     * (its DFA: inlined, the DFA would cost the loop registers) */
    case VK_ATSRT:
        SAME_VALUES(vf_words(f->value.ptr, f->value.len, 3, 7) ||
                    vwalk_atsrt(wb, f->value.ptr, f->value.len))
    case VK_DCT:
        SAME_VALUES(vf_words(f->value.ptr, f->value.len, 2, 5) ||
                    vwalk_dct(wb, f->value.ptr, f->value.len))
    case VK_FIRTIME:
        SAME_VALUES(vwalk_accepts(wb | VK_FIRTIME << VR_KIND_SHIFT, id, f->value.ptr,
                                  f->value.len))
    default:
        SAME_VALUES(vwalk_accepts(wb, id, f->value.ptr, f->value.len))
    }
}
DEFINE_VISIT_KIDS(visit_kids_outer, inner_compound)
DEFINE_COMPOUND_BODY(outer_compound, visit_kids_outer)

static __attribute__((noinline)) void visit_compound(walk *w, const place *pl, unsigned id)
{
    outer_compound(w, pl, id);
}

/* The top-level fields of a message (pl.f set as in visit_kids). */
static void visit_top(walk *w, const adexp_field *first)
{
    place pl = {NULL, NULL, first, 0};
    for (const adexp_field *f = first; f; f = f->next) {
        unsigned id = f->dict_id;
        if (id >= DICT_COUNT) {
            pl.f = f;
            if (f->child)
                visit_lax(w, f->child, &pl);
            continue;
        }
        uint32_t wb = vwalk[id];
        if (wb & (VR_STRUCTURED | VR_SUBFIELD)) {
            pl.f = f;
            if (wb & VR_SUBFIELD)
                misplaced(w, &pl, NULL);
            else if (VALIDATE_USUAL && f->next && f->next->dict_id == id) {
                f = same_run(w, &pl, f, wb, id);
                continue;
            }
            if (wb & VR_STRUCTURED) {
                outer_compound(w, &pl, id);
                continue;
            }
        } else if (VALIDATE_USUAL && f->next && f->next->dict_id == id) {
            f = same_run(w, &pl, f, wb, id);
            continue;
        }
        if (!vwalk_accepts(wb, id, f->value.ptr, f->value.len)) {
            pl.f = f;
            check_value(w, &pl, &vrules[id]);
        }
    }
}

/* The buffer's start: the first field's '-' is at its offset, before its
 * keyword and any separators. */
static const char *buffer_base(const adexp_msg *msg)
{
    const adexp_field *f = msg->fields;
    const char *p = f->keyword.ptr;
    while (p[-1] != '-')
        p--;
    return p - 1 - f->offset;
}

adexp_status adexp_validate(const adexp_msg *msg, adexp_arena *arena, adexp_findings *out)
{
    out->v = NULL;
    out->n = out->cap = 0;
    if (msg->index == 0)           /* a new buffer, maybe at the same address */
        out->lc_base = NULL;
    if (!msg->fields || !msg->fields->keyword.ptr)
        return ADEXP_OK;
    walk w = {msg, arena, out, buffer_base(msg), 0, {0}, NULL, 0};
    if (out->dictionary)
        visit_all(&w, msg->fields, NULL, NULL);
    else
        visit_top(&w, msg->fields);
    return w.nomem ? ADEXP_E_NOMEM : ADEXP_OK;
}
