/* fuzz_validate: adexp_validate on every message of any input: no crash,
 * leak, over-read, UB or hang, and every finding is about a field that is
 * there:
 *  - its code is valid, its path, message and expected syntax are strings;
 *  - the path's last keyword is the keyword of a field of the message whose
 *    value is the finding's value (value findings) or whose '-' is at the
 *    finding's offset (structure findings); the path's depth is the field's;
 *  - the offset lies in the message, the line and column agree with an
 *    independent count;
 *  - validating twice gives the same findings;
 *  - no value starts with a separator (validation's DFA relies on it). */
#include "fuzz_common.h"

typedef struct ctx {
    const char *buf;
    size_t len;
} ctx;

/* Line and column of off, counted from the start (LF, CRLF, lone CR;
 * line 1's columns after a byte order mark). */
static void line_col(const ctx *c, size_t off, uint32_t *line, uint32_t *col)
{
    uint32_t l = 1;
    size_t bol = c->len >= 3 && memcmp(c->buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (size_t i = 0; i < off; i++)
        if (c->buf[i] == '\n' || (c->buf[i] == '\r' && (i + 1 == c->len || c->buf[i + 1] != '\n'))) {
            l++;
            bol = i + 1;
        }
    *line = l;
    *col = (uint32_t)(off - bol + 1);
}

/* The field the finding names, found by position; depth from 1. */
static const adexp_field *find(const adexp_field *f, const adexp_finding *fd, unsigned depth,
                               unsigned *at)
{
    for (; f; f = f->next) {
        int hit = fd->value.ptr ? fd->value.ptr == f->value.ptr && fd->value.len == f->value.len
                                : fd->offset == f->offset;
        if (hit) {
            *at = depth;
            return f;
        }
        const adexp_field *in = find(f->child, fd, depth + 1, at);
        if (in)
            return in;
    }
    return NULL;
}

static void check_finding(const ctx *c, const adexp_msg *m, const adexp_finding *fd)
{
    FUZZ_CHECK((unsigned)fd->code < ADEXP_V_CODE_COUNT);
    FUZZ_CHECK(fd->field && fd->message && fd->expected);
    FUZZ_CHECK(strlen(fd->message) > 0);
    FUZZ_CHECK(fd->offset >= m->offset && fd->offset <= m->offset + m->length);
    if (fd->value.ptr)
        FUZZ_CHECK(fuzz_slice_in(c->buf, c->len, fd->value.ptr, fd->value.len));
    unsigned depth = 0;
    const adexp_field *f = find(m->fields, fd, 1, &depth);
    FUZZ_CHECK(f != NULL);
    /* the path: depth components, the last one f's keyword and its [n] */
    unsigned parts = 1;
    for (const char *p = fd->field; *p; p++)
        parts += *p == '/';
    FUZZ_CHECK(parts == depth);
    const char *last = strrchr(fd->field, '/');
    last = last ? last + 1 : fd->field;
    size_t kl = strcspn(last, "[");
    FUZZ_CHECK(kl == f->keyword.len && memcmp(last, f->keyword.ptr, kl) == 0);
    uint32_t line, col;
    line_col(c, fd->offset, &line, &col);
    FUZZ_CHECK(fd->line == line && fd->column == col);
}

/* Validation's DFA and matcher agree on values that do not start with a
 * separator: the parser never gives one. */
static void no_leading_separator(const adexp_field *f)
{
    for (; f; f = f->next) {
        if (f->value.len) {
            char c0 = f->value.ptr[0];
            FUZZ_CHECK(c0 != ' ' && c0 != '\t' && c0 != '\r' && c0 != '\n');
        }
        no_leading_separator(f->child);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    adexp_options o = fuzz_options(&data, &size);
    char *in = fuzz_copy(data, size);
    ctx c = {in, size};
    adexp_parser *p = adexp_parser_new(&o, NULL);
    if (!p)
        abort();
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_findings f, again;
    adexp_findings_init(&f);
    adexp_findings_init(&again);
    adexp_parser_reset(p, in, size);
    adexp_msg m;
    while (adexp_parser_next(p, &arena, &m) != ADEXP_END) {
        no_leading_separator(m.fields);
        FUZZ_CHECK(adexp_validate(&m, &arena, &f) == ADEXP_OK);
        for (size_t i = 0; i < f.n; i++)
            check_finding(&c, &m, &f.v[i]);
        FUZZ_CHECK(adexp_validate(&m, &arena, &again) == ADEXP_OK);
        FUZZ_CHECK(again.n == f.n);
        for (size_t i = 0; i < f.n; i++) {
            FUZZ_CHECK(again.v[i].code == f.v[i].code && again.v[i].offset == f.v[i].offset);
            FUZZ_CHECK(strcmp(again.v[i].field, f.v[i].field) == 0);
        }
        adexp_arena_reset(&arena);
    }
    adexp_parser_free(p);
    adexp_arena_free(&arena);
    free(in);
    return 0;
}
