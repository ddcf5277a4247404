/* The runs: fields that need none of the general descent's work (known,
 * valid, within the limits, what the grammar calls a plain child), read with
 * the parser's state in locals; at anything else the run stops and the
 * descent (descent.c) goes on from that token. With AVX2 the runs read the
 * commonest fields straight from the input (fused.c). */
#include "build.h"
#include "grammar.h"
#include "run.h"

/* A run of fields that need none of the general code: known, valid, within
 * the limits, each a basic field, a compound of basic subfields or a list of
 * such fields. The state is kept in locals meanwhile (in a struct that the
 * compiler breaks up into registers): every store to a node may alias the
 * parser's structs, so through them it would be reloaded for every field.
 * At anything else the run writes its state back and stops there; the
 * general code takes that token as if it had read all the fields before. */
typedef struct run {
    lexer *lx;
    ftok *t;                    /* the current token, in the lexer's batch */
    ftok *stop;                 /* the tokens before it end within the batch
                                   and within max_message_size */
    size_t bound;               /* the offset max_message_size allows up to */
    char *ptr, *ptr0, *end;     /* node space: the arena's free space in its
                                   chunk, capped by what max_fields leaves */
    char *lim;                  /* end capped by what the frame's max_items
                                   leaves: one test per node for all three,
                                   as each item takes a node (the general
                                   code tells which limit it was) */
    adexp_field **tail;         /* the frame's, and its items */
    uint32_t items;
    adexp_field *c;             /* a compound being read, its subfields */
    const uint64_t *crow;       /* linked at tail meanwhile; else NULL */
} run;

typedef struct span {
    ftok *t, *stop;
} span;

/* The tokens from t on that end within bound, for run.stop; at the batch's
 * end, refilled first. Tokens are in input order and each ends before the
 * next starts, so the batch's last token tells whether all of them do. */
static span run_refill(lexer *lx, ftok *t, size_t bound)
{
    ftok *end = lx->tok + lx->ntok;
    if (t == end) {
        lexer_fill(lx);
        t = lx->tok;
        end = t + lx->ntok;
    }
    span s = {t, end};
    if (tok_end(end - 1) > bound)
        for (s.stop = t; tok_end(s.stop) <= bound; s.stop++)
            ;
    return s;
}

/* Whether r->t may be read: not past max_message_size (refilling the batch
 * at its end). */
static ALWAYS_INLINE int run_more(run *r)
{
    if (r->t != r->stop)
        return 1;
    span s = run_refill(r->lx, r->t, r->bound);
    r->t = s.t;
    r->stop = s.stop;
    return s.t != s.stop;
}

/* r->lim for a frame of max_items items (r->items so far). */
static ALWAYS_INLINE void run_limit(run *r, uint32_t max_items)
{
    size_t left = max_items - r->items;
    r->lim = (size_t)(r->end - r->ptr) / sizeof(adexp_field) > left
                 ? r->ptr + left * sizeof(adexp_field)
                 : r->end;
}

static ALWAYS_INLINE void run_start(adexp_parser *p, const frame *f, run *r)
{
    adexp_arena *a = p->arena;
    size_t room = (size_t)(a->end - a->ptr) / sizeof(adexp_field);
    size_t nf = p->msg->nfields, max = p->opt.max_fields;
    size_t fields_left = nf < max ? max - nf : 0;
    if (room > fields_left)
        room = fields_left;
    r->lx = &p->lx;
    r->bound = p->msg->offset + p->opt.max_message_size;
    if (r->bound < p->msg->offset)
        r->bound = SIZE_MAX;
    span s = run_refill(r->lx, p->tok, r->bound);
    r->t = s.t;
    r->stop = s.stop;
    r->ptr = r->ptr0 = a->ptr;
    r->end = room ? a->ptr + room * sizeof(adexp_field) : a->ptr;  /* ptr may be NULL */
    r->tail = f->tail;
    r->items = f->items;
    r->c = NULL;
    r->crow = NULL;
    run_limit(r, f->max_items);
}

/* Leave the run at its current token, which the general code takes from
 * here. */
static ALWAYS_INLINE void run_stop(adexp_parser *p, frame *f, run *r)
{
    p->arena->ptr = r->ptr;
    p->msg->nfields += (size_t)(r->ptr - r->ptr0) / sizeof(adexp_field);
    p->lx.itok = (unsigned)(r->t - p->lx.tok) + 1;
    f->tail = r->tail;
    f->items = r->items;
    classify(r->t);
    p->tok = r->t;
}

/* The kind and code of a field token with no error, laid out as in ftok:
 * the run compares the two as one block of memory, one instruction. */
typedef struct kind_code {
    ftok_kind kind;
    adexp_status code;
} kind_code;
_Static_assert(offsetof(ftok, code) == sizeof(ftok_kind) &&
               sizeof(kind_code) == sizeof(ftok_kind) + sizeof(adexp_status),
               "kind and code are adjacent, with no padding");

/* Whether t is a field with no error (known or not). */
static ALWAYS_INLINE int plain_field(const ftok *t)
{
    static const kind_code plain = {FT_FIELD, ADEXP_OK};
    return memcmp(t, &plain, sizeof plain) == 0;
}

/* The node of a field (keyword, value, the offset of its '-', entry e and
 * its dictionary id id), linked at r->tail; the caller checked that there is
 * room. */
static ALWAYS_INLINE adexp_field *put_node(run *r, adexp_slice keyword, adexp_slice value,
                                           size_t offset, const dict_entry *e,
                                           unsigned id, adexp_kind kind)
{
    adexp_field *n = (adexp_field *)(void *)r->ptr;
    r->ptr += sizeof(adexp_field);
    n->keyword = keyword;
    n->value = value;
    n->child = n->next = NULL;
    n->offset = offset;
    n->nchildren = 0;
    n->kind = (uint8_t)kind;
    n->flags = node_text_flag(e);
    n->dict_id = (uint16_t)id;
    *r->tail = n;
    r->tail = &n->next;
    return n;
}

/* put_node for field token t. */
static ALWAYS_INLINE adexp_field *run_node(run *r, const ftok *t, const dict_entry *e,
                                           unsigned id, adexp_kind kind)
{
    return put_node(r, t->keyword, t->value, t->offset, e, id, kind);
}

/* Whether compound c in frame f ends at token t (entry e), a keyword c
 * does not allow, as the grammar says: -END ends it; a field or a -BEGIN
 * ends it where the grammar gives it to the frame around (else the general
 * descent reads it). */
static ALWAYS_INLINE int run_ends(const frame *f, const adexp_field *c, ftok *t,
                                  const dict_entry *e)
{
    const dict_entry *ce = &dict_table[c->dict_id];
    if (is_bracket(e)) {
        classify(t);
        return t->kind == FT_END ||
               (t->kind == FT_BEGIN && grammar_list_in_compound(ce, f, t->entry) != GR_CHILD);
    }
    return grammar_in_compound(ce, f, e) != GR_CHILD;
}

/* Leave the run in compound c, whose subfields are being linked at r->tail:
 * the general code goes on with c. */
static ALWAYS_INLINE void run_stop_in(adexp_parser *p, frame *f, run *r, adexp_field *c)
{
    frame child = {
        .up = f, .kind = FR_COMPOUND, .node = c, .tail = r->tail,
        .entry = &dict_table[c->dict_id], .depth = f->depth + 1,
        .items = (uint32_t)((size_t)(r->ptr - (char *)(c + 1)) / sizeof *c),
        .max_items = UINT32_MAX,
    };
    r->tail = &c->next;
    run_stop(p, f, r);
    parse_body(p, &child);
    c->nchildren = child.items;
}

static int run_frame(adexp_parser *p, frame *f, run *r, int closable);

/* List n (its frame child) in frame f, once a run in it has stopped: the
 * general code reads the rest of it, and f's run s starts afresh. Returns
 * 0 if the general code has taken over f (after a fatal error). */
static ALWAYS_INLINE int finish_list(adexp_parser *p, frame *f, run *s, adexp_field *n,
                                      frame *child)
{
    parse_body(p, child);      /* nothing after a fatal error */
    n->nchildren = child->items;
    close_list(p, f, n);
    if (p->fatal)
        return 0;
    run_start(p, f, s);
    return 1;
}

/* The items of list child (node child->node) in frame f, by the run cr that
 * has read its items so far, up to its -END; s is f's run. Returns 0 if the
 * general code has taken over f (after a fatal error). */
static int run_items(adexp_parser *p, frame *f, run *s, frame *child, run *cr)
{
    adexp_field *n = child->node;
    if (run_frame(p, child, cr, 1)) {
        /* on where the items' run ended (which may have started afresh) */
        s->t = cr->t;
        s->stop = cr->stop;
        s->ptr = cr->ptr;
        s->ptr0 = cr->ptr0;
        s->end = cr->end;
        run_limit(s, f->max_items);
        return 1;
    }
    /* the items' run has stopped (its state is written back): the
     * general code finishes the list, and f's run starts afresh */
    f->tail = s->tail;
    f->items = s->items;
    return finish_list(p, f, s, n, child);
}

/* List -BEGIN X at token t (x: the entry of X, a list keyword) in frame f,
 * the message or a list, as add_list would read it: the items by a run of
 * their own, up to -END X. Returns 0 if the general code has taken over f
 * (after a fatal error). */
static ALWAYS_INLINE int run_list(adexp_parser *p, frame *f, run *s, ftok *t,
                                  const dict_entry *x)
{
    adexp_slice none = {NULL, 0};
    adexp_field *n = run_node(s, t, x, dict_id(x), ADEXP_LIST);
    n->value = none;
    s->items++;
    s->t = t + 1;
    frame child = {
        .up = f, .kind = FR_LIST, .node = n, .tail = &n->child, .entry = x,
        .depth = f->depth + 1, .max_items = p->opt.max_list_items,
        .holds = frame_row(FR_LIST, x),
    };
    run cr = *s;
    cr.tail = &n->child;
    cr.items = 0;
    cr.c = NULL;
    cr.crow = NULL;
    run_limit(&cr, child.max_items);
    return run_items(p, f, s, &child, &cr);
}

/* What the run does after a -BEGIN or -END. */
enum { RUN_STOP, RUN_ON, RUN_CLOSED, RUN_LEFT };

/* -BEGIN or -END at t in frame f, the message or a list: a list the run
 * reads (RUN_ON; RUN_LEFT if the general code took over f), the -END that
 * closes f if closable (RUN_CLOSED), or one for the general code. */
static ALWAYS_INLINE int run_bracket(adexp_parser *p, frame *f, run *s, ftok *t,
                                     int closable)
{
    classify(t);
    const dict_entry *x = t->entry;
    if (t->kind == FT_BEGIN && t->code == ADEXP_OK && x && is_list(x) &&
        s->ptr != s->lim && f->depth < p->opt.max_depth)
        return run_list(p, f, s, t, x) ? RUN_ON : RUN_LEFT;
    if (closable && t->kind == FT_END && t->code == ADEXP_OK &&
        same_name(t->keyword, f->node->keyword)) {
        f->node->nchildren = s->items;
        s->t = t + 1;
        return RUN_CLOSED;
    }
    return RUN_STOP;
}


#if RUN_FUSED
/* fs for a run_fused call from run r, in compound c (row crow) or none.
 * Member by member: an initializer zeroes all of fs, the list's frame
 * included, and gcc makes that a rep stos, whose start-up costs more than
 * the rest of a short call. dash, outer_row, outer_items and lf are set
 * where they are first used. */
static ALWAYS_INLINE void fused_start(fused_state *fs, const run *r, adexp_field *c,
                                      const uint64_t *crow)
{
    fs->lx = r->lx;
    fs->bound = r->bound;
    fs->resumed = 0;
    fs->ptr = r->ptr;
    fs->lim = r->lim;
    fs->end = r->end;
    fs->tail = r->tail;
    fs->items = r->items;
    fs->c = c;
    fs->crow = crow;
    fs->outer = NULL;
    fs->nested_c = NULL;
    fs->nested = 0;
    fs->list = NULL;
}
#endif

#if RUN_FUSED
/* Leave the run where run_fused stopped in compound fs->c after compounds
 * in it (fs->nested nodes after c are theirs, not c's), or in fs->c inside
 * compound fs->outer: the general code goes on in c, then in the outer one,
 * as run_stop_in does for one. */
static void run_stop_nested(adexp_parser *p, frame *f, run *r, const fused_state *fs)
{
    adexp_field *c = fs->c, *o = fs->outer;
    size_t own = (size_t)(r->ptr - (char *)(c + 1)) / sizeof *c;
    if (!o) {
        frame child = {
            .up = f, .kind = FR_COMPOUND, .node = c, .tail = r->tail,
            .entry = &dict_table[c->dict_id], .depth = f->depth + 1,
            .items = (uint32_t)(own - fs->nested), .max_items = UINT32_MAX,
        };
        r->tail = &c->next;
        run_stop(p, f, r);
        parse_body(p, &child);
        c->nchildren = child.items;
        return;
    }
    frame of = {
        .up = f, .kind = FR_COMPOUND, .node = o, .tail = &c->next,
        .entry = &dict_table[o->dict_id], .depth = f->depth + 1,
        .items = (uint32_t)((size_t)(c - (o + 1)) - fs->nested + 1), .max_items = UINT32_MAX,
    };
    frame cf = {
        .up = &of, .kind = FR_COMPOUND, .node = c, .tail = r->tail,
        .entry = &dict_table[c->dict_id], .depth = f->depth + 2,
        .items = (uint32_t)own, .max_items = UINT32_MAX,
    };
    r->tail = &o->next;
    run_stop(p, f, r);
    parse_body(p, &cf);
    c->nchildren = cf.items;
    parse_body(p, &of);
    o->nchildren = of.items;
}

/* Leave the run where run_fused stopped in compounds it read in an element
 * of the list fs->list it opened in frame f (s, f's run): the general code
 * goes on in them (run_stop_nested, in the list's frame), then finishes the
 * list, as run_items does where the items' run stops; f's run starts
 * afresh. Returns 0 if the general code has taken over f (after a fatal
 * error). */
static int run_list_nested(adexp_parser *p, frame *f, run *s, fused_state *fs)
{
    frame *lf = &fs->lf;
    adexp_field *n = fs->list;
    run cr = *s;
    run_more(&cr);
    f->tail = &n->next;
    f->items = fs->outer_items;
    run_stop_nested(p, lf, &cr, fs);
    return finish_list(p, f, s, n, lf);
}
#endif

/* The run's loop for frame f, with in_compound a constant (one copy each):
 * the message and a list take any field but a -TITLE, a compound its own
 * subfields. A compound in the run is read in the same loop (c, its nodes
 * linked at s.tail meanwhile), as add_field and a compound frame would; a
 * list by run_list. With closable, f is a list that run_list opened, and
 * its -END closes it here (returning 1); otherwise returns 0, with the
 * state written back for the general code. */
static ALWAYS_INLINE int run_loop(adexp_parser *p, frame *f, run *r, int in_compound,
                                  int closable)
{
    run s = *r;   /* in registers: r's address is taken */
    const uint64_t *row = in_compound ? subfield_row(f->entry) : NULL;
    adexp_field *c = s.c;
    const uint64_t *crow = s.crow;
    for (;;) {
#if RUN_FUSED
        if (s.t == s.stop && p->fused && s.t == s.lx->tok + s.lx->ntok && s.lx->at_dash) {
            fused_state fs;
            fused_start(&fs, &s, c, crow);
            if (in_compound)
                run_fused_in(p, f, &fs, row);
            else
                run_fused(p, f, &fs);
            if (fs.resumed)
                s.t = s.stop = s.lx->tok;   /* run_more takes it from there */
            s.ptr = fs.ptr;
            s.lim = fs.lim;
            s.tail = fs.tail;
            s.items = fs.items;
            c = fs.c;
            crow = fs.crow;
            if (!in_compound && (fs.outer || (c && fs.nested))) {
                /* it stopped in compounds it read in c: the general code
                 * goes on in them, as at any stop in a compound (and then
                 * in the list it opened, if c is that list's element) */
                if (!fs.list) {
                    run_more(&s);
                    run_stop_nested(p, f, &s, &fs);
                    return 0;
                }
                if (!run_list_nested(p, f, &s, &fs))
                    return 0;
                c = NULL;
                crow = NULL;
                continue;
            }
            if (!in_compound && fs.list) {
                /* it stopped in a list it opened: the list's own run goes
                 * on from there, as run_list's */
                run cr = s;
                cr.c = c;
                cr.crow = crow;
                s.tail = &fs.list->next;
                s.items = fs.outer_items;
                c = NULL;
                crow = NULL;
                if (!run_items(p, f, &s, &fs.lf, &cr))
                    return 0;
                continue;
            }
        }
#endif
        if (!run_more(&s))
            break;
        ftok *t = s.t;
        const dict_entry *e = t->entry;
        if (!plain_field(t) || !e)
            break;
        unsigned id = dict_id(e);
        /* s.ptr == s.lim (a limit, or a new chunk) is tested where a node
         * is made: once per field, in the general code's order */
        if (c) {
            if (row_allows(crow, e)) {
                if (!is_basic(e) || s.ptr == s.lim)
                    break;
                run_node(&s, t, e, id, ADEXP_BASIC);
                s.t = t + 1;
                continue;
            }
            if (!run_ends(f, c, t, e))
                break;
            /* and t (maybe made -BEGIN or -END) is for f */
            c = close_compound(c, s.ptr, &s.tail);
        }
        if (!in_compound && is_bracket(e)) {
            int step = run_bracket(p, f, &s, t, closable);
            if (step == RUN_ON)
                continue;
            if (step == RUN_CLOSED) {
                s.c = NULL;    /* c is closed: t was for f */
                s.crow = NULL;
                *r = s;
            }
            if (step != RUN_STOP)
                return step == RUN_CLOSED;
            break;
        }
        if (in_compound ? !row_allows(row, e) : !grammar_plain_child(f, s.items, e, id))
            break;
        if (s.ptr == s.lim)
            break;
        if (is_basic(e)) {
            run_node(&s, t, e, id, ADEXP_BASIC);
        } else if (is_compound(e) && f->depth < p->opt.max_depth) {
            c = run_node(&s, t, e, id, ADEXP_COMPOUND);
            crow = subfield_row(e);
            s.tail = &c->child;
        } else {
            break;
        }
        s.items++;
        s.t = t + 1;
    }
    if (c)
        run_stop_in(p, f, &s, c);
    else
        run_stop(p, f, &s);
    return 0;
}

/* The run for frame f (see run_loop). */
static int run_frame(adexp_parser *p, frame *f, run *r, int closable)
{
    if (f->kind == FR_COMPOUND)
        return run_loop(p, f, r, 1, 0);
    return closable ? run_loop(p, f, r, 0, 1) : run_loop(p, f, r, 0, 0);
}

/* Read the run of fields that starts at p->tok in frame f (maybe none).
 * The general build (ADEXP_PARSER_NO_RUN, which parser/paths_test.c and
 * fuzz_paths compare this one with) has no runs: it does not build this
 * file. */
void run_fields(adexp_parser *p, frame *f)
{
    if (f->kind == FR_UNKNOWN)
        return;
    run r;
    run_start(p, f, &r);
    run_frame(p, f, &r, 0);
}
