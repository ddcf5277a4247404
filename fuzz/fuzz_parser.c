/* fuzz_parser: no crash, leak, over-read or UB on any input, and:
 *  - messages come in order, inside the input, indexed from 0;
 *  - each error's offset lies in the input, its line and column agree with
 *    an independent count (LF, CRLF and lone CR end lines; column = bytes
 *    since the line start + 1), its code is valid and its message is the
 *    code's; nerrors <= max_errors, and past them only the stops that cut a
 *    message (a limit, NOMEM: two at most), nerrors_total >= nerrors, the
 *    return code is the first error's;
 *  - the tree: every slice in the input, fields inside the message span, a
 *    child after its parent, siblings in order, nchildren and nfields match
 *    the counts, kinds valid, basic fields childless, depth <= max_depth,
 *    keywords A-Z0-9 within the limit, TITLE first;
 *  - adexp_parse() returns the first message's status;
 *  - the same holds when one of the first allocations fails, and with a
 *    dictionary extension loaded (new compounds, lists, text fields, and
 *    subfields added to PT). */
#include "fuzz_common.h"
#include "lexer.h"
#include "usual_point.h"

typedef struct ctx {
    const char *buf;
    size_t len;
    const adexp_options *o;    /* as the parser clamps them */
    const adexp_msg *m;
    size_t *bol;               /* start offsets of the lines */
    size_t nlines;
    size_t nfields;
} ctx;

static void index_lines(ctx *c)
{
    size_t n = 1;
    for (size_t i = 0; i < c->len; i++)
        n += c->buf[i] == '\n' || (c->buf[i] == '\r' && (i + 1 == c->len || c->buf[i + 1] != '\n'));
    c->bol = malloc(n * sizeof *c->bol);
    if (!c->bol)
        abort();
    /* line 1 starts after a UTF-8 byte order mark, which the lexer skips */
    c->bol[0] = c->len >= 3 && memcmp(c->buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    c->nlines = 1;
    for (size_t i = 0; i < c->len; i++)
        if (c->buf[i] == '\n' || (c->buf[i] == '\r' && (i + 1 == c->len || c->buf[i + 1] != '\n')))
            c->bol[c->nlines++] = i + 1;
}

/* 1-based line and column of off, by binary search over the line starts. */
static void where(const ctx *c, size_t off, size_t *line, size_t *col)
{
    size_t lo = 0, hi = c->nlines;     /* last bol <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->bol[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    *col = off - c->bol[lo] + 1;
}

static int all_alnum(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_alnum((unsigned char)p[i]))
            return 0;
    return 1;
}

static void check_fields(ctx *c, const adexp_field *f, size_t after, uint32_t depth,
                         uint32_t *count)
{
    const adexp_msg *m = c->m;
    size_t prev = after;
    int first = 1;
    *count = 0;
    for (; f; f = f->next) {
        ++*count;
        FUZZ_CHECK(++c->nfields <= m->nfields);        /* also: no cycle */
        FUZZ_CHECK(f->kind <= ADEXP_LIST);
        FUZZ_CHECK(f->offset >= m->offset && f->offset < m->offset + m->length);
        FUZZ_CHECK(first && depth == 0 ? f->offset >= prev : f->offset > prev);
        FUZZ_CHECK(c->buf[f->offset] == '-');
        FUZZ_CHECK(fuzz_slice_in(c->buf, c->len, f->keyword.ptr, f->keyword.len));
        FUZZ_CHECK(fuzz_slice_in(c->buf, c->len, f->value.ptr ? f->value.ptr : c->buf,
                                 f->value.len));
        FUZZ_CHECK(f->keyword.len >= 1 && all_alnum(f->keyword.ptr, f->keyword.len));
        FUZZ_CHECK((size_t)(f->keyword.ptr - c->buf) > f->offset);
        if (f->kind != ADEXP_LIST)
            FUZZ_CHECK(f->keyword.len <= c->o->max_keyword_len);
        if (f->value.len)
            FUZZ_CHECK((size_t)(f->value.ptr - c->buf) > f->offset);
        FUZZ_CHECK(!(f->flags & ~(ADEXP_FIELD_UNKNOWN | ADEXP_FIELD_TEXT |
                                   ADEXP_FIELD_MISPLACED | ADEXP_FIELD_USUAL_POINT)));
        FUZZ_CHECK(!(f->flags & ADEXP_FIELD_USUAL_POINT) || usual_point_holds(f));
        if (f->kind != ADEXP_LIST)
            FUZZ_CHECK(!(f->flags & ADEXP_FIELD_UNKNOWN) == (f->dict_id != ADEXP_DICT_NONE));
        if (f->kind == ADEXP_BASIC)
            FUZZ_CHECK(f->child == NULL && f->nchildren == 0);
        if (f->kind == ADEXP_LIST)
            FUZZ_CHECK(f->value.len == 0 || f->value.ptr == f->keyword.ptr);
        if (f->child) {
            FUZZ_CHECK(depth + 1 <= c->o->max_depth);
            uint32_t n;
            check_fields(c, f->child, f->offset, depth + 1, &n);
            FUZZ_CHECK(n == f->nchildren);
        } else {
            FUZZ_CHECK(f->nchildren == 0);
        }
        prev = f->offset;
        first = 0;
    }
}

/* The errors that cut a message short, kept past max_errors. */
static int is_stop(adexp_status code)
{
    return code == ADEXP_E_DEPTH_LIMIT || code == ADEXP_E_LIST_LIMIT ||
           code == ADEXP_E_FIELD_LIMIT || code == ADEXP_E_SIZE_LIMIT || code == ADEXP_E_NOMEM;
}

static void check_message(ctx *c, const adexp_msg *m, adexp_status st, size_t index,
                          size_t prev_end)
{
    c->m = m;
    uint32_t max_errors = c->o->max_errors ? c->o->max_errors : 1;
    FUZZ_CHECK(m->index == index);
    FUZZ_CHECK(m->offset >= prev_end && m->offset <= c->len);
    FUZZ_CHECK(m->length <= c->len - m->offset);
    FUZZ_CHECK(m->nerrors <= max_errors + 2 && m->nerrors <= m->nerrors_total);
    FUZZ_CHECK(m->nerrors == 0 || m->errors != NULL);
    FUZZ_CHECK(st == (m->nerrors ? m->errors[0].code : ADEXP_OK));
    FUZZ_CHECK(m->nerrors_total == 0 || m->nerrors > 0);
    size_t prev_off = 0;
    for (size_t i = 0; i < m->nerrors; i++) {
        const adexp_error *e = &m->errors[i];
        size_t line, col;
        FUZZ_CHECK(e->code > ADEXP_END && e->code < ADEXP_STATUS_COUNT);
        FUZZ_CHECK(e->message == adexp_status_message(e->code));
        FUZZ_CHECK(e->offset <= c->len);
        FUZZ_CHECK(e->offset >= m->offset);
        FUZZ_CHECK(i < max_errors || is_stop(e->code));
        where(c, e->offset, &line, &col);
        if (line != e->line || col != e->column)
            fprintf(stderr, "error %zu at %zu: parser says %u:%u, expected %zu:%zu\n",
                    i, e->offset, (unsigned)e->line, (unsigned)e->column, line, col);
        FUZZ_CHECK(line == e->line && col == e->column);
        (void)prev_off;
        prev_off = e->offset;
    }
    c->nfields = 0;
    uint32_t n;
    check_fields(c, m->fields, m->offset, 0, &n);
    FUZZ_CHECK(c->nfields == m->nfields);
    /* a record without its -TITLE (NO_TITLE) keeps the fields before one */
    int no_title = 0;
    for (size_t i = 0; i < m->nerrors; i++)
        no_title |= m->errors[i].code == ADEXP_E_NO_TITLE;
    if (m->fields && no_title)   /* (a list may be named TITLE: -BEGIN TITLE) */
        FUZZ_CHECK(m->fields->kind != ADEXP_BASIC || !adexp_slice_eq(m->fields->keyword, "TITLE"));
    /* (a NO_TITLE past max_errors is counted, not stored) */
    if (m->fields && !no_title && m->nerrors == m->nerrors_total) {
        FUZZ_CHECK(adexp_slice_eq(m->fields->keyword, "TITLE"));
        /* a message in an envelope starts at its heading */
        FUZZ_CHECK(m->envelope.present ? m->fields->offset > m->offset
                                       : m->fields->offset == m->offset);
    }
    const adexp_envelope *env = &m->envelope;
    const adexp_slice parts[] = {env->transmission_id, env->priority, env->addressees,
                                 env->filing_time, env->originator, env->text[0],
                                 env->text[1], env->text[2]};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        FUZZ_CHECK(env->present || !parts[i].ptr);
        if (parts[i].ptr)
            FUZZ_CHECK(fuzz_slice_in(c->buf + m->offset, m->length, parts[i].ptr, parts[i].len));
        /* the parts come before the text after them (a garbled line and on):
         * no byte is held twice */
        if (parts[i].ptr && i < 7 && env->text[2].ptr)
            FUZZ_CHECK(parts[i].ptr + parts[i].len <= env->text[2].ptr);
    }
    if (m->view.title.ptr)
        FUZZ_CHECK(fuzz_slice_in(c->buf, c->len, m->view.title.ptr, m->view.title.len));
}

/* An allocator that fails its fail_at-th call (0: never). */
typedef struct failing {
    size_t calls, fail_at;
} failing;

static void *failing_alloc(void *ctx, size_t size)
{
    failing *f = ctx;
    if (++f->calls == f->fail_at)
        return NULL;
    return malloc(size);
}

static void failing_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

/* Parse every message of c->buf, checking each; returns the first status. */
static adexp_status parse_all(ctx *c, adexp_options o, const adexp_allocator *hooks)
{
    adexp_parser *p = adexp_parser_new(&o, hooks);
    if (!p) {
        FUZZ_CHECK(hooks != NULL);          /* only the failing allocator */
        return ADEXP_E_NOMEM;
    }
    if (o.max_depth > ADEXP_MAX_DEPTH_LIMIT)
        o.max_depth = ADEXP_MAX_DEPTH_LIMIT;
    c->o = &o;
    adexp_arena arena;
    adexp_arena_init(&arena, hooks);
    adexp_parser_reset(p, c->buf, c->len);
    adexp_msg m;
    adexp_status st, first = ADEXP_END;
    size_t index = 0, prev_end = 0;
    while ((st = adexp_parser_next(p, &arena, &m)) != ADEXP_END) {
        FUZZ_CHECK(index <= c->len);        /* each message consumes input */
        if (index == 0)
            first = st;
        check_message(c, &m, st, index++, prev_end);
        prev_end = m.offset + m.length;
        adexp_arena_reset(&arena);
    }
    FUZZ_CHECK(adexp_parser_next(p, &arena, &m) == ADEXP_END);
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    c->o = NULL;
    return first;
}

static const char extension[] =
    "TTO\tprimary\tc\t-\tPTID TO FL\t-\n"
    "ISPASS\tsubfield\tb\t-\t-\t-\n"
    "TEAM18\tsubfield\tc\t-\tPTID ETO TTO\t-\n"
    "PT\tsubfield\tc\t-\tISPASS TEAM18 RTEPTS\t-\n"
    "LOCALLIST\tprimary\tl\t-\tLOCALITEM PT\t-\n"
    "LOCALITEM\tsubfield\tc\t-\tPTID ISPASS LOCALLIST\t-\n"
    "LOCALTEXT\tprimary\tb\tTEXT\t-\t-\n";

/* Loaded once, kept for the process (reachable: not a leak). */
static const adexp_dictionary *fuzz_extension(void)
{
    static adexp_dictionary *d;
    if (!d)
        d = adexp_dict_load(NULL, extension, sizeof extension - 1, NULL);
    FUZZ_CHECK(d != NULL);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int has_options = size && fuzz_is_option_byte(data[0]);
    adexp_options o = fuzz_options(&data, &size);
    char *buf = fuzz_copy(data, size);
    ctx c = {.buf = buf, .len = size};
    index_lines(&c);
    adexp_status first = parse_all(&c, o, NULL);

    /* the one-shot API agrees on the first message */
    if (!has_options) {
        adexp_arena arena;
        adexp_arena_init(&arena, NULL);
        adexp_msg m;
        adexp_status st = adexp_parse(buf, size, &arena, &m);
        FUZZ_CHECK(st == first);
        adexp_arena_free(&arena);
    }

    /* with the extension: the same invariants */
    adexp_options oe = o;
    oe.dictionary = fuzz_extension();
    parse_all(&c, oe, NULL);

    /* again with the 1st to 4th allocation failing: no crash, no leak, and
     * the same invariants (NOMEM is just another error) */
    failing f = {0, 1 + (size ? (unsigned char)buf[size - 1] % 4 : 0)};
    adexp_allocator hooks = {failing_alloc, failing_free, &f};
    parse_all(&c, o, &hooks);

    free(c.bol);
    free(buf);
    return 0;
}
