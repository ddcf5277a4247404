/* fuzz_lexer: every token is a slice of the input, tokens come in order and
 * never overlap, keywords are A-Z0-9 runs within the limit, and the lexer
 * ends with TOK_EOF after at most len + 2 tokens. The library's lexer (with
 * AVX2 where the CPU has it) gives the same field tokens as its SSE2 and
 * scalar builds (lexer/meson.build: symbols renamed sse2_*, scalar_*). */
#include "fuzz_common.h"
#include "lexer.h"

void scalar_lexer_init(lexer *lx, const char *buf, size_t len, uint32_t max_keyword_len);
void sse2_lexer_init(lexer *lx, const char *buf, size_t len, uint32_t max_keyword_len);

static int same_token(const field_token *a, const field_token *b)
{
    return a->kind == b->kind && a->code == b->code && a->keyword.ptr == b->keyword.ptr &&
           a->keyword.len == b->keyword.len && a->value.ptr == b->value.ptr &&
           a->value.len == b->value.len && a->offset == b->offset &&
           a->value_offset == b->value_offset && a->entry == b->entry;
}

static void check_builds(const char *buf, size_t len, uint32_t max_kw)
{
    lexer a, b, c;
    lexer_init(&a, buf, len, max_kw);
    scalar_lexer_init(&b, buf, len, max_kw);
    sse2_lexer_init(&c, buf, len, max_kw);
    for (size_t count = 0; count <= len + 2; count++) {
        const field_token *t = lexer_next_field(&a);
        FUZZ_CHECK(same_token(t, lexer_next_field(&b)));
        FUZZ_CHECK(same_token(t, lexer_next_field(&c)));
        if (t->kind == FT_EOF)
            return;
    }
    FUZZ_CHECK(!"no FT_EOF after len + 2 tokens");
}

static int all_alnum(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_alnum((unsigned char)p[i]))
            return 0;
    return 1;
}

static void check_stream(const char *buf, size_t len, uint32_t max_kw, int from_title)
{
    lexer lx;
    token t;
    lexer_init(&lx, buf, len, max_kw);
    if (from_title)
        lexer_skip_to_title(&lx);
    size_t prev_end = 0, count = 0;
    tok_kind prev = TOK_EOF;
    for (;;) {
        memset(&t, 0xA5, sizeof t);
        lexer_next(&lx, &t);
        FUZZ_CHECK(++count <= len + 2);
        FUZZ_CHECK(t.kind <= TOK_ERROR);
        FUZZ_CHECK(fuzz_slice_in(buf, len, t.ptr, t.len));
        FUZZ_CHECK(t.offset <= len);
        FUZZ_CHECK(t.offset >= prev_end);                 /* no going back */
        FUZZ_CHECK(t.offset <= (size_t)(t.ptr - buf));
        prev_end = (size_t)(t.ptr - buf) + t.len;
        if (from_title && count == 1)
            FUZZ_CHECK(t.kind == TOK_EOF ||
                       (t.kind == TOK_KEYWORD && t.len == 5 && !memcmp(t.ptr, "TITLE", 5)));
        switch (t.kind) {
        case TOK_EOF:
            FUZZ_CHECK(t.offset == len && t.len == 0);
            lexer_next(&lx, &t);                          /* stays at EOF */
            FUZZ_CHECK(t.kind == TOK_EOF && t.offset == len);
            return;
        case TOK_KEYWORD:
            FUZZ_CHECK(t.code == ADEXP_OK);
            FUZZ_CHECK(buf[t.offset] == '-');
            FUZZ_CHECK(t.len >= 1 && t.len <= max_kw && all_alnum(t.ptr, t.len));
            FUZZ_CHECK(t.entry == NULL || dict_lookup(t.ptr, t.len) == t.entry);
            break;
        case TOK_VALUE:
            FUZZ_CHECK(prev == TOK_KEYWORD);              /* a value follows a keyword */
            FUZZ_CHECK(t.code == ADEXP_OK || t.code == ADEXP_E_TEXT_UNCLOSED);
            FUZZ_CHECK(t.offset == (size_t)(t.ptr - buf));
            if (t.len) {                                  /* trimmed */
                FUZZ_CHECK(!is_sep((unsigned char)t.ptr[0]));
                FUZZ_CHECK(!is_sep((unsigned char)t.ptr[t.len - 1]));
            }
            break;
        case TOK_TEXT:
            FUZZ_CHECK(t.len > 0 && buf[t.offset] != '-');
            FUZZ_CHECK(t.offset == (size_t)(t.ptr - buf));
            break;
        case TOK_ERROR:
            FUZZ_CHECK(t.code == ADEXP_E_NO_KEYWORD || t.code == ADEXP_E_KEYWORD_LIMIT);
            FUZZ_CHECK(t.len >= 1 && t.ptr[0] == '-');
            break;
        }
        /* a keyword is always followed by its value */
        FUZZ_CHECK(prev != TOK_KEYWORD || t.kind == TOK_VALUE);
        prev = t.kind;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    adexp_options o = fuzz_options(&data, &size);
    char *buf = fuzz_copy(data, size);
    check_stream(buf, size, o.max_keyword_len, 0);
    check_stream(buf, size, o.max_keyword_len, 1);
    check_builds(buf, size, o.max_keyword_len);
    free(buf);
    return 0;
}
