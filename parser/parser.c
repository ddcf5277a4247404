/* The ADEXP parser: recursive descent over the lexer's tokens, with the
 * structure taken from the field dictionary, not from lines:
 *  - a compound (-ESTDATA -PTID X -ETO Y) ends at the first keyword that is
 *    not one of its subfields; a list element (-PT in RTEPTS) also keeps
 *    unknown and stray subfields up to the next element or primary field;
 *  - -BEGIN X ... -END X lists nest; inside a list any keyword is an item;
 *  - a -TITLE outside a message list starts the next message.
 * Most fields are plain (known, valid, within the limits): those are read by
 * a run, a loop that keeps the parser's state in locals (see run below),
 * which with AVX2 reads the commonest of them straight from the input, with
 * no token (run_fused); the general code reads everything else, and on its
 * own (ADEXP_PARSER_NO_RUN) gives the same messages, which
 * parser/paths_test.c and fuzz_paths check. */
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ids.h"
#include "internal.h"
#include "lexer.h"
#include "scan.h"

/* The runs read the common fields straight from the input (run_fused) where
 * the CPU has AVX2; ADEXP_PARSER_NO_RUN has no runs at all. */
#if AVX2_SCAN && !defined(ADEXP_PARSER_NO_RUN)
#define RUN_FUSED 1
#else
#define RUN_FUSED 0
#endif

/* The parser reads the lexer's field tokens (a keyword with its value) as
 * they are, with one change made by advance: -BEGIN X and -END X become
 * FT_BEGIN and FT_END with keyword and entry those of the list name X. */
typedef field_token ftok;

/* One past the token's last byte. */
static size_t tok_end(const ftok *t)
{
    return t->value_offset + t->value.len;
}

typedef enum { FR_ROOT, FR_COMPOUND, FR_LIST, FR_UNKNOWN } frame_kind;

/* What the fields being read belong to: the message, a compound, a list, or
 * an unknown field (which takes the subfields that follow it, as the spec
 * skips an unknown field up to the next primary keyword). */
typedef struct frame {
    const struct frame *up;
    frame_kind kind;
    adexp_field *node;         /* NULL for the message itself */
    adexp_field **tail;        /* where the next child is linked */
    const dict_entry *entry;
    uint32_t depth;
    uint32_t items;            /* children so far: node->nchildren at the end */
    uint32_t max_items;        /* max_list_items in a list, else no limit */
    int seen_title;
} frame;

struct adexp_parser {
    adexp_options opt;
    adexp_allocator a;
    lexer lx;
    ftok *tok;                 /* the current token, not consumed yet (in
                                  the lexer's batch: valid until advance) */
    const char *buf;
    size_t len;
    adexp_arena *arena;
    adexp_msg *msg;
    size_t index;              /* of the next message */
    int fatal;                 /* a limit was hit: stop and resume at -TITLE */
    int fused;                 /* the runs use run_fused (the CPU has AVX2;
                                  max_keyword_len allows all hot keywords) */
    adexp_error *errors;       /* opt.max_errors of them */
    size_t lc_off, lc_bol;     /* line cache: offset, start of its line */
    uint32_t lc_line;
};

adexp_options adexp_options_default(void)
{
    adexp_options o = {
        .max_depth = ADEXP_DEFAULT_MAX_DEPTH,
        .max_fields = ADEXP_DEFAULT_MAX_FIELDS,
        .max_list_items = ADEXP_DEFAULT_MAX_LIST_ITEMS,
        .max_keyword_len = ADEXP_DEFAULT_MAX_KEYWORD_LEN,
        .max_errors = ADEXP_DEFAULT_MAX_ERRORS,
        .max_message_size = ADEXP_DEFAULT_MAX_MESSAGE_SIZE,
    };
    return o;
}

adexp_parser *adexp_parser_new(const adexp_options *opts, const adexp_allocator *hooks)
{
    adexp_allocator a = hooks ? *hooks : adexp_default_allocator();
    adexp_options o = opts ? *opts : adexp_options_default();
    if (o.max_depth > ADEXP_MAX_DEPTH_LIMIT)
        o.max_depth = ADEXP_MAX_DEPTH_LIMIT;
    if (o.max_errors == 0)
        o.max_errors = 1;
    adexp_parser *p = a.alloc(a.ctx, sizeof *p);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->errors = a.alloc(a.ctx, o.max_errors * sizeof *p->errors);
    if (!p->errors) {
        a.free(a.ctx, p, sizeof *p);
        return NULL;
    }
    p->opt = o;
    p->a = a;
#if RUN_FUSED
    p->fused = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && o.max_keyword_len >= 8;
#endif
    adexp_parser_reset(p, NULL, 0);
    return p;
}

void adexp_parser_free(adexp_parser *p)
{
    if (!p)
        return;
    p->a.free(p->a.ctx, p->errors, p->opt.max_errors * sizeof *p->errors);
    p->a.free(p->a.ctx, p, sizeof *p);
}

/* Line and column of off, scanning on from the last answer (errors come in
 * order), so reporting stays linear. LF, CRLF and a lone CR end a line. */
static void locate(adexp_parser *p, size_t off, adexp_error *e)
{
    if (off < p->lc_off) {
        p->lc_off = p->lc_bol = 0;
        p->lc_line = 1;
    }
    const char *b = p->buf;
    for (size_t i = p->lc_off; i < off; i++) {
        if (b[i] == '\n' || (b[i] == '\r' && (i + 1 == p->len || b[i + 1] != '\n'))) {
            p->lc_line++;
            p->lc_bol = i + 1;
        }
    }
    p->lc_off = off;
    e->line = p->lc_line;
    e->column = (uint32_t)(off - p->lc_bol + 1);
}

static void record_error(adexp_parser *p, adexp_status code, size_t offset)
{
    adexp_msg *m = p->msg;
    if (m->nerrors < p->opt.max_errors) {
        adexp_error *e = &p->errors[m->nerrors++];
        e->code = code;
        e->message = adexp_status_message(code);
        e->offset = offset;
        locate(p, offset, e);
    }
    m->nerrors_total++;
}

static void fatal(adexp_parser *p, adexp_status code, size_t offset)
{
    record_error(p, code, offset);
    p->fatal = 1;
}

/* e is the entry of id (e may be NULL): an address compare, no division. */
static int is_entry(const dict_entry *e, unsigned id)
{
    return e == &dict_table[id];
}

/* -BEGIN X / -END X: the name is the value's one word of A-Z0-9. */
static void list_bracket(ftok *f, ftok_kind kind)
{
    size_t n = 0;
    while (n < f->value.len && is_alnum((unsigned char)f->value.ptr[n]))
        n++;
    if (n == 0) {
        f->kind = FT_ERROR;
        f->code = ADEXP_E_BEGIN_NO_NAME;
        return;
    }
    f->kind = kind;
    if (n < f->value.len)
        f->code = ADEXP_E_BEGIN_NO_NAME;
    f->keyword.ptr = f->value.ptr;
    f->keyword.len = n;
    f->entry = lexer_lookup(f->value.ptr, n);
}

/* For the per-field helpers: a call costs more than they do (saving and
 * restoring registers for their few slow paths). */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* Advance's one change to a token (see ftok above). */
static ALWAYS_INLINE void classify(ftok *f)
{
    if (f->kind == FT_FIELD) {
        /* BEGIN and END are syntax keywords: one test for most fields */
        if (f->entry && f->entry->level == DICT_SYNTAX) {
            if (is_entry(f->entry, DICT_ID_BEGIN))
                list_bracket(f, FT_BEGIN);
            else if (is_entry(f->entry, DICT_ID_END))
                list_bracket(f, FT_END);
        }
    } else if (f->kind == FT_TEXT) {   /* text before the first field */
        f->code = ADEXP_E_NO_TITLE;
    }
}

/* The lexer's batch when the runs read the common fields themselves: the
 * tokens it makes are mostly those of the fields they leave to it. */
#define FUSED_BATCH 1

/* Pull the next field token: p->tok points into the lexer's batch. */
static ALWAYS_INLINE void advance(adexp_parser *p)
{
    ftok *f = p->tok = lexer_next_field(&p->lx);
    classify(f);
}

void adexp_parser_reset(adexp_parser *p, const char *buf, size_t len)
{
    p->buf = buf;
    p->len = buf ? len : 0;
    p->index = 0;
    p->lc_off = p->lc_bol = 0;
    p->lc_line = 1;
    lexer_init(&p->lx, buf, p->len, p->opt.max_keyword_len);
#if RUN_FUSED
    if (p->fused) {
        p->lx.batch = FUSED_BATCH;
        lexer_start(&p->lx);
    }
#endif
    advance(p);
}

static int same_name(adexp_slice a, adexp_slice b)
{
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

static int is_subfield_level(const dict_entry *e)
{
    return e->level == DICT_SUBFIELD || e->level == DICT_RESERVED_SUBFIELD;
}

/* Whether e is a known subfield that frame f has no place for. */
static ALWAYS_INLINE int stray_subfield(const frame *f, const dict_entry *e)
{
    return e && is_subfield_level(e) && !(f->entry && dict_allows_entry(f->entry, e));
}

/* Whether the field token belongs in frame f (else f ends before it). */
static int accepts_field(frame *f, const ftok *t)
{
    const dict_entry *e = t->entry;
    int title = is_entry(e, DICT_ID_TITLE);
    switch (f->kind) {
    case FR_ROOT:
        return !title || f->items == 0;
    case FR_LIST:
        if (!title)
            return 1;
        /* a message list holds one whole message; a second -TITLE, or one
         * in any other list, means the list was left open */
        if (f->entry && (f->entry->flags & DICT_MSG_LIST) && !f->seen_title)
            return f->seen_title = 1;
        return 0;
    case FR_COMPOUND:
        if (e && dict_allows_entry(f->entry, e))
            return 1;
        /* A list element runs to the next element or primary field. */
        return f->up->kind == FR_LIST && (!e || stray_subfield(f->up, e));
    case FR_UNKNOWN:
        return stray_subfield(f->up, e);
    }
    return 0;
}

/* Whether the list token can open a list in frame f. */
static int accepts_list(const frame *f, const ftok *t)
{
    if (f->kind != FR_COMPOUND)
        return 1;
    return t->entry && dict_allows_entry(f->entry, t->entry);
}

/* The arena's bump path inlined for nodes, one per field: what
 * adexp_arena_alloc does when the current chunk has room, since a node's
 * size is a multiple of the arena's alignment (max_align_t). */
_Static_assert(sizeof(adexp_field) % _Alignof(max_align_t) == 0,
               "node size keeps the arena aligned");

static adexp_field *node_alloc(adexp_arena *a)
{
    if ((size_t)(a->end - a->ptr) >= sizeof(adexp_field)) {
        adexp_field *n = (adexp_field *)(void *)a->ptr;
        a->ptr += sizeof(adexp_field);
        return n;
    }
    return adexp_arena_alloc(a, sizeof(adexp_field));
}

/* A new node for the current token, linked at the end of frame f, or NULL
 * after a fatal error. The caller's kind, flags and value go into the one
 * store of the whole node; the parent's nchildren is set when its frame ends. */
static ALWAYS_INLINE adexp_field *new_node(adexp_parser *p, frame *f, adexp_kind kind,
                                           unsigned flags, adexp_slice value)
{
    const ftok *t = p->tok;
    if (p->msg->nfields >= p->opt.max_fields) {
        fatal(p, ADEXP_E_FIELD_LIMIT, t->offset);
        return NULL;
    }
    if (f->items >= f->max_items) {
        fatal(p, ADEXP_E_LIST_LIMIT, t->offset);
        return NULL;
    }
    adexp_field *n = node_alloc(p->arena);
    if (!n) {
        fatal(p, ADEXP_E_NOMEM, t->offset);
        return NULL;
    }
    /* member by member: a compound literal is built on the stack, then copied */
    n->keyword = t->keyword;
    n->value = value;
    n->child = n->next = NULL;
    n->offset = t->offset;
    n->nchildren = 0;
    n->kind = (uint8_t)kind;
    n->flags = (uint8_t)flags;
    n->dict_id = t->entry ? dict_id(t->entry) : ADEXP_DICT_NONE;
    *f->tail = n;
    f->tail = &n->next;
    f->items++;
    p->msg->nfields++;
    return n;
}

static void parse_body(adexp_parser *p, frame *f);

/* Parse the children of node into a new frame below f. */
static void parse_children(adexp_parser *p, frame *f, adexp_field *node,
                           frame_kind kind, const dict_entry *entry)
{
    if (f->depth + 1 > p->opt.max_depth) {
        fatal(p, ADEXP_E_DEPTH_LIMIT, node->offset);
        return;
    }
    frame child = {
        .up = f, .kind = kind, .node = node, .tail = &node->child,
        .entry = entry, .depth = f->depth + 1,
        .max_items = kind == FR_LIST ? p->opt.max_list_items : UINT32_MAX,
    };
    parse_body(p, &child);
    node->nchildren = child.items;
}

static void add_field(adexp_parser *p, frame *f)
{
    const dict_entry *e = p->tok->entry;
    adexp_kind kind = e && e->kind == ADEXP_COMPOUND ? ADEXP_COMPOUND : ADEXP_BASIC;
    unsigned flags = !e ? ADEXP_FIELD_UNKNOWN : e->flags & DICT_TEXT ? ADEXP_FIELD_TEXT : 0;
    adexp_field *n = new_node(p, f, kind, flags, p->tok->value);
    if (!n)
        return;
    if (p->tok->code != ADEXP_OK)
        record_error(p, p->tok->code, p->tok->value_offset);
    advance(p);
    if (n->kind == ADEXP_COMPOUND) {
        parse_children(p, f, n, FR_COMPOUND, e);
    } else if (!e && p->tok->kind == FT_FIELD && stray_subfield(f, p->tok->entry)) {
        n->kind = ADEXP_COMPOUND;
        parse_children(p, f, n, FR_UNKNOWN, NULL);
    }
}

/* Whether a list named name is open in f or around it. */
static int list_open(const frame *f, adexp_slice name)
{
    for (; f; f = f->up)
        if (f->kind == FR_LIST && same_name(name, f->node->keyword))
            return 1;
    return 0;
}

/* After the items of list n in frame f: its -END, or an error. */
static void close_list(adexp_parser *p, const frame *f, const adexp_field *n)
{
    if (p->fatal)
        return;
    if (p->tok->kind != FT_END)
        record_error(p, ADEXP_E_LIST_UNCLOSED, n->offset);
    else if (same_name(p->tok->keyword, n->keyword) || !list_open(f, p->tok->keyword))
        advance(p);            /* ours, or a mismatch (reported) that closes it */
}

static void add_list(adexp_parser *p, frame *f)
{
    const dict_entry *e = p->tok->entry;
    adexp_slice none = {NULL, 0};
    adexp_field *n = new_node(p, f, ADEXP_LIST,
                              !e || e->kind != ADEXP_LIST ? ADEXP_FIELD_UNKNOWN : 0, none);
    if (!n)
        return;
    if (p->tok->code != ADEXP_OK)
        record_error(p, p->tok->code, p->tok->value_offset);
    advance(p);
    parse_children(p, f, n, FR_LIST, e && e->kind == ADEXP_LIST ? e : NULL);
    close_list(p, f, n);
}

/* An -END token in frame f: returns 1 if it was consumed here, 0 if f ends.
 * -END X inside list Y closes Y with END_MISMATCH: when X is open further out,
 * that list closes too; otherwise -END X takes the place of -END Y. */
static int end_list(adexp_parser *p, const frame *f)
{
    adexp_slice name = p->tok->keyword;
    if (f->kind == FR_COMPOUND)
        return 0;
    if (f->kind == FR_LIST) {
        if (!same_name(name, f->node->keyword))
            record_error(p, ADEXP_E_END_MISMATCH, p->tok->offset);
        return 0;
    }
    record_error(p, ADEXP_E_END_WITHOUT_BEGIN, p->tok->offset);
    advance(p);
    return 1;
}

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
    n->flags = e->flags & DICT_TEXT ? ADEXP_FIELD_TEXT : 0;
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

/* Whether a -TITLE is the message's own, in frame f with items so far. */
static ALWAYS_INLINE int first_title(const frame *f, uint32_t items)
{
    return f->kind == FR_ROOT && items == 0;
}

/* Whether f, a list, keeps field e in its open element (a stray subfield)
 * rather than ending the element with it. */
static ALWAYS_INLINE int element_keeps(const frame *f, const dict_entry *e)
{
    return f->kind == FR_LIST && stray_subfield(f, e);
}

/* Whether compound c (row crow) in frame f ends at token t (entry e), a
 * keyword c does not allow: a field ends it unless c is a list element and
 * e a stray subfield (which c keeps); -END ends it, and so does a -BEGIN of a
 * list that c has no place for. */
static ALWAYS_INLINE int run_ends(const frame *f, const uint64_t *crow, ftok *t,
                                  const dict_entry *e)
{
    if (e->level == DICT_SYNTAX) {
        classify(t);
        return t->kind == FT_END ||
               (t->kind == FT_BEGIN && !(t->entry && dict_row_allows(crow, t->entry)));
    }
    return !element_keeps(f, e);
}

/* Compound c ends before ptr: its count is its nodes after it (less those
 * of compounds in it that run_fused read: fused_mend), and the next node
 * is its sibling.
 * Returns NULL, the open compound after it. */
static ALWAYS_INLINE adexp_field *close_compound(adexp_field *c, const char *ptr,
                                              adexp_field ***tail)
{
    c->nchildren = (uint32_t)((size_t)(ptr - (const char *)(c + 1)) / sizeof *c);
    *tail = &c->next;
    return NULL;
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
    parse_body(p, child);      /* nothing after a fatal error */
    n->nchildren = child->items;
    close_list(p, f, n);
    if (p->fatal)
        return 0;
    run_start(p, f, s);
    return 1;
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
    if (t->kind == FT_BEGIN && t->code == ADEXP_OK && x && x->kind == ADEXP_LIST &&
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
/* What run_fused reads and changes of the run: the lexer (resumed at the
 * field it stops at, unless it stopped at the bound without reading), the
 * bound max_message_size sets, the node space, tail and item count, and the
 * compound being read. */
typedef struct fused_state {
    lexer *lx;
    size_t bound;
    int resumed;
    char *ptr;
    char *lim;                 /* the node space for the frame being read */
    char *end;                 /* the run's, for the limit of a list */
    adexp_field **tail;
    uint32_t items;
    adexp_field *c;
    const uint64_t *crow;
    size_t dash;               /* for run_fused_tail: the field it starts at */
    /* Compounds in a compound (-REFDATA -SENDER -FAC X): the compound c is
     * in while the run stopped inside c (outer, its row outer_row; else
     * NULL), and the nodes of those read in nested_c (nested), which are
     * not nested_c's own: its count is mended when it ends. */
    adexp_field *outer;
    const uint64_t *outer_row;
    adexp_field *nested_c;
    size_t nested;
    /* A list that run_fused opened (at -BEGIN X, as run_list would) and is
     * reading: its node (NULL: none), its frame, and the frame's item count
     * before it; tail, items, lim, c and crow are then the list's. */
    adexp_field *list;
    uint32_t outer_items;
    frame lf;
} fused_state;

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

/* The entry of the list named by the value of a -BEGIN or -END that
 * scan_field_avx2 took (x; w the window it scanned), as list_bracket would
 * make it with no error: the value is one hot keyword, a list. NULL for
 * anything else, which the run's token path reads. */
__attribute__((target(AVX2_TARGET))) static inline const dict_entry *
fused_list_name(const char *w, const field_scan *x)
{
    unsigned n = x->end - x->st;
    if (n - 1 >= 8 || x->st + 8 > 32)
        return NULL;
    uint64_t key;
    memcpy(&key, w + x->st, 8);
    const dict_entry *e = hot_hit(_bzhi_u64(key, 8 * n), n);
    return e && e->kind == ADEXP_LIST ? e : NULL;
}

/* r's node space for a frame of max_items items, items of them so far
 * (run_limit). */
static ALWAYS_INLINE char *fused_limit(char *ptr, char *end, uint32_t max_items,
                                       uint32_t items)
{
    size_t left = max_items - items;
    return (size_t)(end - ptr) / sizeof(adexp_field) > left
               ? ptr + left * sizeof(adexp_field)
               : end;
}

/* The input's last bytes (at most 32, after a field's '-'), where a 32-byte
 * load would read past its end: copied to a buffer, with a '-' right after
 * them. The scan takes a value there as the lexer does at the input's end
 * (right-trimmed, maybe empty), since it stops at the '-' as at a field's. */
typedef struct tail_window {
    char bytes[64];
    size_t start;              /* the input's offset of bytes[0] */
} tail_window;

static void tail_window_fill(tail_window *tw, const char *b, size_t start, size_t end)
{
    memset(tw->bytes, 0, sizeof tw->bytes);
    memcpy(tw->bytes, b + start, end - start);
    tw->bytes[end - start] = '-';
    tw->start = start;
}

/* A node's last eight bytes (nchildren 0, kind, flags 0, dict_id) as one
 * word: run_fused's fields are never text (no hot keyword is), and x86-64,
 * where it is built, is little-endian. */
_Static_assert(offsetof(adexp_field, kind) == offsetof(adexp_field, nchildren) + 4 &&
                   offsetof(adexp_field, flags) == offsetof(adexp_field, kind) + 1 &&
                   offsetof(adexp_field, dict_id) == offsetof(adexp_field, kind) + 2 &&
                   sizeof(adexp_field) == offsetof(adexp_field, nchildren) + 8,
               "nchildren, kind, flags and dict_id end the node, in that order");

static ALWAYS_INLINE adexp_field *fused_node(char **ptr, adexp_field ***tail,
                                             const char *kw, const field_scan *x,
                                             size_t dash, adexp_kind kind)
{
    adexp_field *n = (adexp_field *)(void *)*ptr;
    uint64_t last = (uint64_t)kind << 32 | (uint64_t)x->id << 48;
    *ptr += sizeof(adexp_field);
    n->keyword.ptr = kw;
    n->keyword.len = x->k;
    n->value.ptr = kw + x->st;
    n->value.len = x->end - x->st;
    n->child = n->next = NULL;
    n->offset = dash;
    memcpy(&n->nchildren, &last, sizeof last);
    **tail = n;
    *tail = &n->next;
    return n;
}

/* A route point in its usual shape, -PT -PTID x -FL y -ETO z (most of the
 * nodes of a flight plan), read from one 64-byte window rather than by four
 * scans, each field as scan_field_avx2 would take it (the same keyword,
 * value and next '-'), with no dictionary lookup or subfield test: the
 * three are basic subfields of -PT, none text (parser/dict_test.c checks).
 * The window's bytes are all below the run's bound; up to 8 more after it
 * are read (not used). */
#define POINT_WINDOW 64
#define POINT_READ (POINT_WINDOW + 8)

/* The node at n of a basic subfield: keyword kw of k bytes, its '-' at
 * offset dash; value from w + st to the last byte that is no separator
 * before w + de, the next '-' (nsep: the window's bytes that are no
 * separator); linked before the node after it. */
__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
point_node(adexp_field *n, const char *w, size_t dash, unsigned kw, unsigned k,
           uint64_t nsep, unsigned de, unsigned id, adexp_kind kind)
{
    unsigned st = kw + k + (unsigned)_tzcnt_u64(nsep >> (kw + k));
    unsigned last = 64 - (unsigned)__builtin_clzll(_bzhi_u64(nsep, de));
    uint64_t tail8 = (uint64_t)kind << 32 | (uint64_t)id << 48;
    n->keyword.ptr = w + kw;
    n->keyword.len = k;
    n->value.ptr = w + st;
    n->value.len = (last > st ? last : st) - st;
    n->child = NULL;
    n->next = n + 1;
    n->offset = dash;
    memcpy(&n->nchildren, &tail8, sizeof tail8);
}

/* The route point whose -PT is at bit 0 of the 64-byte window w (at
 * offset d): if it is -PT [value] -PTID x -FL y -ETO z, each keyword whole
 * with a separator after it, its four nodes at n (the -PT's children
 * linked, the last ones' next NULL), and the bit of the '-' after it; else
 * 0, with nothing written. No '-' is in a keyword, so the four '-' after
 * bit 0 are those of the three subfields and the next field, each after
 * the keyword before it. */
__attribute__((target(AVX2_TARGET), always_inline)) static inline unsigned
point_at(const char *w, size_t d, adexp_field *n)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)w);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(w + 32));
    uint64_t sep = avx2_sep_mask(lo) | (uint64_t)avx2_sep_mask(hi) << 32;
    uint64_t m = avx2_byte_mask(lo, '-') | (uint64_t)avx2_byte_mask(hi, '-') << 32;
    m = _blsr_u64(m);
    unsigned s = (unsigned)_tzcnt_u64(m);       /* -PTID; 64 if none */
    m = _blsr_u64(m);
    unsigned f = (unsigned)_tzcnt_u64(m);       /* -FL */
    m = _blsr_u64(m);
    unsigned e = (unsigned)_tzcnt_u64(m);       /* -ETO */
    m = _blsr_u64(m);
    if (!m)
        return 0;
    unsigned z = (unsigned)_tzcnt_u64(m);       /* the next field's */
    uint16_t kt;
    uint32_t kp, kf, ke;
    memcpy(&kt, w + 1, 2);
    memcpy(&kp, w + s + 1, 4);
    memcpy(&kf, w + f + 1, 4);
    memcpy(&ke, w + e + 1, 4);
    if ((kt ^ (uint16_t)PACK8('P', 'T', 0, 0, 0, 0, 0, 0)) |
        (kp ^ (uint32_t)PACK8('P', 'T', 'I', 'D', 0, 0, 0, 0)) |
        ((kf ^ (uint32_t)PACK8('F', 'L', 0, 0, 0, 0, 0, 0)) & 0xffff) |
        ((ke ^ (uint32_t)PACK8('E', 'T', 'O', 0, 0, 0, 0, 0)) & 0xffffff))
        return 0;
    if (!((sep >> 3) & (sep >> (s + 5)) & (sep >> (f + 3)) & (sep >> (e + 4)) & 1))
        return 0;
    uint64_t nsep = ~sep;
    point_node(n, w, d, 1, 2, nsep, s, DICT_ID_PT, ADEXP_COMPOUND);
    point_node(n + 1, w, d + s, s + 1, 4, nsep, f, DICT_ID_PTID, ADEXP_BASIC);
    point_node(n + 2, w, d + f, f + 1, 2, nsep, e, DICT_ID_FL, ADEXP_BASIC);
    point_node(n + 3, w, d + e, e + 1, 3, nsep, z, DICT_ID_ETO, ADEXP_BASIC);
    n->child = n + 1;
    n->next = NULL;
    n[3].next = NULL;
    return z;
}

/* What fused_points read: the last point (still open: a subfield may
 * follow; each point after the first is four nodes after the one before),
 * and the '-' after it. */
typedef struct point_run {
    adexp_field *c;
    size_t dash;
} point_run;

/* The route from the -PT at c (just opened, its '-' at d): its usual
 * subfields as nodes after c (c written again, the same), then, with more
 * (a route list, whose elements -PT are), each usual point that follows
 * (closing the one before, as the fused loop would), while room (nodes
 * after c) allows and the POINT_READ bytes from its '-' are below lim.
 * Returns dash 0 (nothing changed) if the first point is not a usual one.
 * Out of line, so that the fused loop keeps its registers. */
__attribute__((target(AVX2_TARGET), noinline)) static point_run
fused_points(const char *b, size_t d, size_t lim, adexp_field *c, size_t room, int more)
{
    point_run r = {c, 0};
    unsigned z = point_at(b + d, d, c);
    if (!z)
        return r;
    d += z;
    room -= 3;
    while (more && room >= 4 && lim >= d + POINT_READ) {
        adexp_field *n = r.c + 4;
        z = point_at(b + d, d, n);
        if (!z)
            break;
        r.c->nchildren = 3;    /* closed: the next point is its sibling */
        r.c->next = n;
        r.c = n;
        d += z;
        room -= 4;
    }
    r.dash = d;
    return r;
}

/* scan_field_avx2 for a field whose value may run to the input's end, the
 * avail bytes after p being all the input has left (more than 32): the
 * same field, or one whose value ends at the input's end (de is then
 * avail). Out of line: it is tried once, where a loop of scans stopped, so
 * on a field that scan_field_avx2 refused; only a value with no '-' in the
 * first 32 bytes can fare differently here. */
__attribute__((target(AVX2_TARGET), noinline)) static int
scan_field_to_end(const char *p, size_t avail, unsigned kmax, field_scan *fs)
{
    return scan_field_at(p, p + avail, kmax, 1, fs);
}

/* The count of fs->nested_c, which has ended, without the nodes of the
 * compounds in it (counted as its own where it ended). */
static void fused_mend(fused_state *fs)
{
    if (fs->nested_c)
        fs->nested_c->nchildren -= (uint32_t)fs->nested;
    fs->nested_c = NULL;
    fs->nested = 0;
}

/* Whether the keyword at kw is MSGTXT, ended by a separator. */
static ALWAYS_INLINE int is_msgtxt(const char *kw)
{
    return memcmp(kw, "MSGTXT", 6) == 0 && is_sep((unsigned char)kw[6]);
}

/* The node of the -MSGTXT at dash with value [vs, ve). */
static void fused_text_node(char **ptr, adexp_field ***tail, const char *b, size_t dash,
                            size_t vs, size_t ve)
{
    adexp_field *n = (adexp_field *)(void *)*ptr;
    *ptr += sizeof(adexp_field);
    n->keyword.ptr = b + dash + 1;
    n->keyword.len = 6;
    n->value.ptr = b + vs;
    n->value.len = ve - vs;
    n->child = n->next = NULL;
    n->offset = dash;
    n->nchildren = 0;
    n->kind = ADEXP_BASIC;
    n->flags = ADEXP_FIELD_TEXT;
    n->dict_id = DICT_ID_MSGTXT;
    **tail = n;
    *tail = &n->next;
}

/* The node of list le opened by the -BEGIN that x is (run_list's). */
static ALWAYS_INLINE adexp_field *fused_list_node(char **ptr, adexp_field ***tail,
                                                  const char *kw, const field_scan *x,
                                                  size_t dash, const dict_entry *le)
{
    adexp_field *n = (adexp_field *)(void *)*ptr;
    *ptr += sizeof(adexp_field);
    n->keyword.ptr = kw + x->st;
    n->keyword.len = x->end - x->st;
    n->value.ptr = NULL;
    n->value.len = 0;
    n->child = n->next = NULL;
    n->offset = dash;
    n->nchildren = 0;
    n->kind = ADEXP_LIST;
    n->flags = le->flags & DICT_TEXT ? ADEXP_FIELD_TEXT : 0;
    n->dict_id = dict_id(le);
    **tail = n;
    *tail = &n->next;
    return n;
}

/* element_keeps out of line, called for a list only and only where the
 * list does not take e as an element (then e ends the element, as the next
 * -PT of a route does, without a call): inlined whole, its test of e's bit
 * in the list's row shares the bit's word and shift with the compound's
 * test, which gcc then keeps on the stack for every field. */
__attribute__((noinline)) static int fused_keeps(const frame *fr, const dict_entry *e)
{
    return element_keeps(fr, e);
}

/* The run's loop (run_loop, which has taken all the lexer's tokens, the
 * last of them ending at a field's '-') going on in the input itself: the
 * fields that scan_field_avx2 takes and the run would read as they are
 * (basic fields, compounds of them) become nodes with no token in between,
 * and so do, out of the main loop, a -BEGIN/-END list opened here, a
 * -MSGTXT group, a last value that runs to the input's end, a compound in
 * a compound and a route's usual points (fused_points). The input's last
 * 32 bytes are read from a padded copy (at_tail, run_fused_tail). At any
 * other field, or at max_message_size, the lexer resumes at its '-' (with
 * the field as its token if the scan took it) and run_loop reads on from
 * that token, or from a list or compound this loop left open (run_items,
 * run_stop_nested): it makes the same decisions in the same order, and
 * this loop has changed nothing for that field yet. */
static void run_fused_tail(const adexp_parser *p, const frame *f, fused_state *fs,
                           int in_compound, const uint64_t *row);

__attribute__((target(AVX2_TARGET))) static ALWAYS_INLINE void
fused_loop(const adexp_parser *p, const frame *f, fused_state *fs, int in_compound,
           const uint64_t *row, int at_tail)
{
    char *ptr = fs->ptr, *plim = fs->lim;
    adexp_field **tail = fs->tail, *c = fs->c;
    uint32_t items = fs->items;
    const uint64_t *crow = fs->crow;
    adexp_field *list = fs->list;
    const frame *fr = list ? &fs->lf : f;      /* the frame being read */
    lexer *lx = fs->lx;
    const char *b = lx->buf;
    size_t dash = at_tail ? fs->dash : lx->pos;
    size_t lim = lx->len < fs->bound ? lx->len : fs->bound;
    field_scan x;
    tail_window tw;
    if (at_tail)
        tail_window_fill(&tw, b, dash, lim);
    /* the 32 bytes the scan read for the field at dash */
#define FUSED_WINDOW (at_tail ? tw.bytes + (dash - tw.start) + 1 : b + dash + 1)
    /* the loop's state back into fs */
#define FUSED_SAVE()                                                           \
    (fs->ptr = ptr, fs->tail = tail, fs->items = items, fs->c = c, fs->crow = crow, \
     fs->lim = plim, fs->list = list)
    /* max_keyword_len >= 8 */
again:
    while ((at_tail ? dash < lim : lim > dash + 32) &&
           scan_field_avx2(FUSED_WINDOW, at_tail ? FUSED_WINDOW + 32 : b + lim, 8, &x)) {
        const char *kw = b + dash + 1;
        const dict_entry *e = x.e;
        if (c) {
            if (dict_row_allows(crow, e)) {
                if (e->kind != ADEXP_BASIC || ptr == plim)
                    goto compound_in_c;
                fused_node(&ptr, &tail, kw, &x, dash, ADEXP_BASIC);
                dash += 1 + x.de;
                continue;
            }
            if (e->level == DICT_SYNTAX) {
                /* -END, or -BEGIN of a list c has no place for, ends c
                 * (run_ends); the token path reads anything else */
                const dict_entry *le;
                if (in_compound || !(le = fused_list_name(FUSED_WINDOW, &x)) ||
                    (x.id == DICT_ID_BEGIN && dict_row_allows(crow, le)))
                    goto scanned;
            } else if (fr->kind == FR_LIST &&
                       !(fr->entry && dict_allows_entry(fr->entry, e)) &&
                       fused_keeps(fr, e)) {
                goto scanned;
            }
            c = close_compound(c, ptr, &tail);
        }
        if (!in_compound && e->level == DICT_SYNTAX) {
            /* -BEGIN X opens list X (run_list), -END X closes it: only a
             * list opened here, and not one inside it */
            const dict_entry *le = fused_list_name(FUSED_WINDOW, &x);
            if (!le)
                goto scanned;
            if (x.id == DICT_ID_BEGIN) {
                if (list || ptr == plim || f->depth >= p->opt.max_depth)
                    goto scanned;
                list = fused_list_node(&ptr, &tail, kw, &x, dash, le);
                fs->lf = (frame){
                    .up = f, .kind = FR_LIST, .node = list, .tail = &list->child,
                    .entry = le, .depth = f->depth + 1, .max_items = p->opt.max_list_items,
                };
                fr = &fs->lf;
                tail = &list->child;
                fs->outer_items = items + 1;
                items = 0;
                plim = fused_limit(ptr, fs->end, p->opt.max_list_items, 0);
            } else {
                if (!list || le != fs->lf.entry)
                    goto scanned;
                list->nchildren = items;
                tail = &list->next;
                items = fs->outer_items;
                plim = fused_limit(ptr, fs->end, f->max_items, items);
                list = NULL;
                fr = f;
            }
            dash += 1 + x.de;
            continue;
        }
        if (in_compound ? !dict_row_allows(row, e)
                        : x.id == DICT_ID_TITLE && !first_title(fr, items))
            goto scanned;
        if (ptr == plim)
            goto scanned;
        if (e->kind == ADEXP_BASIC) {
            fused_node(&ptr, &tail, kw, &x, dash, ADEXP_BASIC);
        } else if (e->kind == ADEXP_COMPOUND && fr->depth < p->opt.max_depth) {
            c = fused_node(&ptr, &tail, kw, &x, dash, ADEXP_COMPOUND);
            crow = dict_sub_rows[e->sub_row];
            tail = &c->child;
            if (!in_compound && !at_tail && x.id == DICT_ID_PT) {
                /* its usual subfields at once, and the points after it in
                 * a route; the last point stays open for more subfields */
                size_t room = (size_t)(plim - ptr) / sizeof(adexp_field);
                point_run pr;
                if (lim >= dash + POINT_READ && room >= 3 &&
                    (pr = fused_points(b, dash, lim, c, room,
                                       fr->kind == FR_LIST && fr->entry &&
                                           dict_allows_entry(fr->entry, e))).dash) {
                    items += 1 + (uint32_t)(pr.c - c) / 4;
                    c = pr.c;
                    ptr = (char *)(void *)(c + 4);
                    tail = &c[3].next;
                    dash = pr.dash;
                    continue;
                }
            }
        } else {
            goto scanned;
        }
        items++;
        dash += 1 + x.de;
    }
    /* a -MSGTXT (ICAO text, which may hold '-'): its node here if its value
     * is a group in parentheses, as the run would make it from the lexer's
     * token (with -MSGTXT primary, a compound c ends at it) */
    if (!in_compound && !at_tail && lim > dash + 32 && is_msgtxt(b + dash + 1)) {
        const dict_entry *te = &dict_table[DICT_ID_MSGTXT];
        size_t vs, ve, next;
        if (ptr != plim && !(c && (dict_row_allows(crow, te) || element_keeps(fr, te))) &&
            lexer_text_group(lx, dash + 7, &vs, &ve, &next) && ve <= lim) {
            if (c) {
                c = close_compound(c, ptr, &tail);
            }
            fused_text_node(&ptr, &tail, b, dash, vs, ve);
            items++;
            dash = next;
            goto again;
        }
    }
    /* a field of the message or a list whose value runs to the input's end
     * (a last -COMMENT or -ROUTE): a node here, as the loop would make it */
    if (!in_compound && !at_tail && !c && lim == lx->len && lim > dash + 32) {
        field_scan t;
        if (scan_field_to_end(b + dash + 1, lim - dash - 1, 8, &t) &&
            t.e->kind == ADEXP_BASIC && t.e->level != DICT_SYNTAX &&
            t.id != DICT_ID_TITLE && ptr != plim) {
            fused_node(&ptr, &tail, b + dash + 1, &t, dash, ADEXP_BASIC);
            items++;
            dash += 1 + t.de;
            goto again;
        }
    }
    /* the bound, or a field the scan does not take: the lexer reads it (also
     * if it is the first, so that the lexer does not scan it again; the loop
     * ends before the bound only at a scan) */
    if (!at_tail && lim <= dash + 32 && dash < lim && lim == lx->len) {
        fs->dash = dash;      /* on in the copy of the input's last bytes */
        FUSED_SAVE();
        run_fused_tail(p, f, fs, in_compound, row);
        return;
    }
    fs->resumed = dash != lx->pos || (at_tail ? dash < lim : lim > dash + 32);
    if (fs->resumed)
        lexer_resume(lx, dash, NULL);
    goto out;
compound_in_c:  /* an allowed subfield of c that is no basic field */
    if (in_compound || at_tail || x.e->kind != ADEXP_COMPOUND || ptr == plim || list ||
        fr->depth + 1 >= p->opt.max_depth)
        goto scanned;
    {
        /* read here with its basic subfields; then the loop goes on in c
         * from the field that ends it (scanned again) */
        if (fs->nested_c != c) {
            fused_mend(fs);
            fs->nested_c = c;
        }
        adexp_field *in = fused_node(&ptr, &tail, b + dash + 1, &x, dash, ADEXP_COMPOUND);
        const uint64_t *irow = dict_sub_rows[x.e->sub_row];
        tail = &in->child;
        dash += 1 + x.de;
        for (;;) {
            int took = lim > dash + 32 && scan_field_avx2(b + dash + 1, b + lim, 8, &x);
            if (took && dict_row_allows(irow, x.e)) {
                if (x.e->kind != ADEXP_BASIC || ptr == plim)
                    goto stop_in;
                fused_node(&ptr, &tail, b + dash + 1, &x, dash, ADEXP_BASIC);
                dash += 1 + x.de;
                continue;
            }
            /* it ends at a field it does not take (its compound is no list:
             * no stray subfield stays), at -END or at -BEGIN of a list it
             * has no place for; anything else is read by the general code */
            const dict_entry *le;
            if (!took || (x.e->level == DICT_SYNTAX &&
                          (!(le = fused_list_name(b + dash + 1, &x)) ||
                           (x.id == DICT_ID_BEGIN && dict_row_allows(irow, le))))) {
            stop_in:
                fs->outer = c;
                fs->outer_row = crow;
                c = in;
                crow = irow;
                if (took)
                    goto scanned;
                fs->resumed = 1;
                lexer_resume(lx, dash, NULL);
                goto out;
            }
            close_compound(in, ptr, &tail);
            fs->nested += in->nchildren;
            goto again;
        }
    }
scanned:        /* a field the run does not take as it stands: its token */
    fs->resumed = 1;
    {
        field_scan y = x;      /* a copy, so that x need not live in memory */
        lexer_resume(lx, dash, &y);
    }
out:
    if (fs->nested_c && fs->nested_c != c && fs->nested_c != fs->outer)
        fused_mend(fs);        /* it has ended */
    FUSED_SAVE();
}
#undef FUSED_WINDOW
#undef FUSED_SAVE

/* fused_loop for the message or a list, and for a compound. Not inlined:
 * compiled for AVX2, and called once per stretch of such fields. */
__attribute__((target(AVX2_TARGET), noinline)) static void
run_fused(const adexp_parser *p, const frame *f, fused_state *fs)
{
    fused_loop(p, f, fs, 0, NULL, 0);
}

__attribute__((target(AVX2_TARGET), noinline)) static void
run_fused_in(const adexp_parser *p, const frame *f, fused_state *fs, const uint64_t *row)
{
    fused_loop(p, f, fs, 1, row, 0);
}

/* fused_loop on the input's last 32 bytes, for both kinds of frame. */
__attribute__((target(AVX2_TARGET), noinline)) static void
run_fused_tail(const adexp_parser *p, const frame *f, fused_state *fs, int in_compound,
               const uint64_t *row)
{
    fused_loop(p, f, fs, in_compound, row, 1);
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
    const uint64_t *row = in_compound ? dict_sub_rows[f->entry->sub_row] : NULL;
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
                 * goes on in them, as at any stop in a compound */
                run_more(&s);
                run_stop_nested(p, f, &s, &fs);
                return 0;
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
            if (dict_row_allows(crow, e)) {
                if (e->kind != ADEXP_BASIC || s.ptr == s.lim)
                    break;
                run_node(&s, t, e, id, ADEXP_BASIC);
                s.t = t + 1;
                continue;
            }
            if (!run_ends(f, crow, t, e))
                break;
            /* and t (maybe made -BEGIN or -END) is for f */
            c = close_compound(c, s.ptr, &s.tail);
        }
        if (!in_compound && e->level == DICT_SYNTAX) {
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
        if (in_compound ? !dict_row_allows(row, e) : id == DICT_ID_TITLE && !first_title(f, s.items))
            break;
        if (s.ptr == s.lim)
            break;
        if (e->kind == ADEXP_BASIC) {
            run_node(&s, t, e, id, ADEXP_BASIC);
        } else if (e->kind == ADEXP_COMPOUND && f->depth < p->opt.max_depth) {
            c = run_node(&s, t, e, id, ADEXP_COMPOUND);
            crow = dict_sub_rows[e->sub_row];
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

/* Read the run of fields that starts at p->tok in frame f (maybe none). */
static void run_fields(adexp_parser *p, frame *f)
{
    /* ADEXP_PARSER_NO_RUN leaves everything to the general code: the build
     * that parser/paths_test.c and fuzz_paths compare this one with */
#if !defined(ADEXP_PARSER_NO_RUN)
    if (f->kind == FR_UNKNOWN)
        return;
    run r;
    run_start(p, f, &r);
    run_frame(p, f, &r, 0);
#else
    (void)p;
    (void)f;
#endif
}

static void parse_body(adexp_parser *p, frame *f)
{
    while (!p->fatal) {
        run_fields(p, f);
        if (p->fatal)
            return;
        const ftok *t = p->tok;
        if (tok_end(t) - p->msg->offset > p->opt.max_message_size) {
            fatal(p, ADEXP_E_SIZE_LIMIT, t->offset);
            return;
        }
        switch (t->kind) {
        case FT_EOF:
            return;
        case FT_ERROR:
        case FT_TEXT:
            record_error(p, t->code, t->offset);
            advance(p);
            break;
        case FT_FIELD:
            if (!accepts_field(f, t))
                return;
            add_field(p, f);
            break;
        case FT_BEGIN:
            if (!accepts_list(f, t))
                return;
            add_list(p, f);
            break;
        case FT_END:
            if (!end_list(p, f))
                return;
            break;
        }
    }
}

/* Resume at the next -TITLE: the current token, or one further on. */
static void skip_to_title(adexp_parser *p)
{
    if (p->tok->kind == FT_FIELD && is_entry(p->tok->entry, DICT_ID_TITLE))
        return;
    lexer_skip_to_title(&p->lx);
    advance(p);
}

/* Keep the errors with the message: copy them into the arena. */
static void keep_errors(adexp_parser *p, adexp_msg *msg)
{
    if (msg->nerrors == 0)
        return;
    adexp_error *e = adexp_arena_alloc(p->arena, msg->nerrors * sizeof *e);
    if (e)
        memcpy(e, p->errors, msg->nerrors * sizeof *e);
    msg->errors = e ? e : p->errors;   /* else valid until the next call */
}

/* Zero the message (800 bytes) with the C library's memset: for a memset of
 * a known size this large gcc emits a rep stos, which starts slowly on AMD
 * CPUs and took 5% of a message's parse. The empty asm hides the size. */
static void clear_msg(adexp_msg *msg)
{
    size_t n = sizeof *msg;
#if defined(__GNUC__)
    __asm__("" : "+r"(n));
#endif
    memset(msg, 0, n);
}

adexp_status adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg)
{
    clear_msg(msg);
    if (p->tok->kind == FT_EOF)
        return ADEXP_END;
    p->arena = arena;
    p->msg = msg;
    p->fatal = 0;
    msg->index = p->index++;
    msg->offset = p->tok->offset;
    if (p->tok->kind == FT_FIELD && is_entry(p->tok->entry, DICT_ID_TITLE)) {
        frame root = {.kind = FR_ROOT, .tail = &msg->fields, .max_items = UINT32_MAX};
        parse_body(p, &root);
        if (p->fatal) {
            /* stopped on its own -TITLE (a title past max_message_size,
             * max_fields 0): step over it, or the next call would parse
             * the same message again, forever */
            if (p->tok->offset == msg->offset)
                advance(p);
            skip_to_title(p);
        }
    } else {
        record_error(p, ADEXP_E_NO_TITLE, p->tok->offset);
        skip_to_title(p);
    }
    size_t end = p->tok->offset;
    while (end > msg->offset && is_sep((unsigned char)p->buf[end - 1]))
        end--;
    msg->length = end - msg->offset;
    if (!adexp_view_build(msg, arena))
        record_error(p, ADEXP_E_NOMEM, msg->offset);
    keep_errors(p, msg);
    p->msg = NULL;
    return msg->nerrors ? msg->errors[0].code : ADEXP_OK;
}

adexp_status adexp_parse(const char *buf, size_t len, adexp_arena *arena, adexp_msg *msg)
{
    adexp_parser *p = adexp_parser_new(NULL, &arena->a);
    if (!p) {
        memset(msg, 0, sizeof *msg);
        return ADEXP_E_NOMEM;
    }
    adexp_parser_reset(p, buf, len);
    adexp_status st = adexp_parser_next(p, arena, msg);
    if (msg->errors == p->errors) {     /* would dangle */
        msg->errors = NULL;
        msg->nerrors = 0;
    }
    adexp_parser_free(p);
    return st;
}
