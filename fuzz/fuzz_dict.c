#define _GNU_SOURCE            /* memmem */
/* fuzz_dict: a dictionary extension (the input up to a line "%%"), then
 * ADEXP text read with it (the rest):
 *  - a refused extension says why, NUL-terminated, at a line inside its
 *    text (or line 0: not on a line);
 *  - a loaded one leaves the grammar whole: "-TITLE IFPL -ARCID A1" still
 *    reads as one IFPL message without error (rows that would make TITLE
 *    or a structural keyword something else are refused);
 *  - the text parses, validates and is written back (verify on) with it
 *    without crash, leak or hang, and each message without error reads
 *    back, with the same dictionary, as the same tree. */
#include "fuzz_common.h"

static void check_refusal(const char *text, size_t len, const adexp_dict_error *e)
{
    FUZZ_CHECK(memchr(e->message, 0, sizeof e->message) && e->message[0]);
    unsigned lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    FUZZ_CHECK(e->line <= lines);
    FUZZ_CHECK(e->line == 0 || e->column >= 1);
}

static void check_grammar_whole(const adexp_dictionary *d)
{
    static const char probe[] = "-TITLE IFPL -ARCID A1\n";
    adexp_options o = adexp_options_default();
    o.dictionary = d;
    adexp_parser *p = adexp_parser_new(&o, NULL);
    FUZZ_CHECK(p);
    adexp_arena a;
    adexp_arena_init(&a, NULL);
    adexp_parser_reset(p, probe, sizeof probe - 1);
    adexp_msg m;
    FUZZ_CHECK(adexp_parser_next(p, &a, &m) == ADEXP_OK);
    FUZZ_CHECK(m.view.title.len == 4 && memcmp(m.view.title.ptr, "IFPL", 4) == 0);
    FUZZ_CHECK(adexp_parser_next(p, &a, &m) == ADEXP_END);
    adexp_arena_free(&a);
    adexp_parser_free(p);
}

static void write_back(const adexp_msg *m, const adexp_dictionary *d, adexp_parser *back,
                       adexp_buf *out, adexp_arena *arena)
{
    adexp_write_options o = adexp_write_options_default();
    o.verify = 1;
    o.dictionary = d;
    out->len = 0;
    adexp_write_error err;
    FUZZ_CHECK(adexp_write(out, m, &o, &err) == ADEXP_OK);
    adexp_parser_reset(back, out->data, out->len);
    adexp_msg b;
    adexp_arena_reset(arena);
    FUZZ_CHECK(adexp_parser_next(back, arena, &b) == ADEXP_OK);
    FUZZ_CHECK(adexp_tree_same(m->fields, b.fields, ADEXP_SAME_ALL_FLAGS, NULL));
    FUZZ_CHECK(adexp_parser_next(back, arena, &b) == ADEXP_END);
}

static void read_messages(const char *text, size_t len, const adexp_dictionary *d)
{
    adexp_options o = adexp_options_default();
    o.dictionary = d;
    adexp_parser *p = adexp_parser_new(&o, NULL), *back = adexp_parser_new(&o, NULL);
    FUZZ_CHECK(p && back);
    adexp_arena a, va, ba;
    adexp_arena_init(&a, NULL);
    adexp_arena_init(&va, NULL);
    adexp_arena_init(&ba, NULL);
    adexp_buf out;
    adexp_buf_init(&out, NULL);
    adexp_parser_reset(p, text, len);
    adexp_msg m;
    for (size_t n = 0; n <= len + 1 && adexp_parser_next(p, &a, &m) != ADEXP_END; n++) {
        adexp_findings f;
        adexp_findings_init(&f);
        f.dictionary = d;
        FUZZ_CHECK(adexp_validate(&m, &va, &f) == ADEXP_OK);
        if (m.nerrors_total == 0)
            write_back(&m, d, back, &out, &ba);
        adexp_arena_reset(&va);
        adexp_arena_reset(&a);
    }
    adexp_buf_free(&out);
    adexp_arena_free(&a);
    adexp_arena_free(&va);
    adexp_arena_free(&ba);
    adexp_parser_free(p);
    adexp_parser_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = fuzz_copy(data, size);
    const char *sep = size >= 3 ? memmem(buf, size, "%%\n", 3) : NULL;
    size_t dict_len = sep ? (size_t)(sep - buf) : size;
    size_t text_at = sep ? dict_len + 3 : size;
    adexp_dict_error err;
    memset(&err, 0, sizeof err);
    adexp_dictionary *d = adexp_dict_load(NULL, buf, dict_len, &err);
    if (!d) {
        check_refusal(buf, dict_len, &err);
    } else {
        check_grammar_whole(d);
        read_messages(buf + text_at, size - text_at, d);
    }
    adexp_dict_free(d);
    free(buf);
    return 0;
}
