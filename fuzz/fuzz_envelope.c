/* fuzz_envelope: AFTN envelopes on any input; no crash, leak, over-read or
 * UB, and:
 *  - at each envelope start (the first 64), up to the end the parser finds
 *    for its text: the heading and the text's first -TITLE read together
 *    (lexer_envelope_text, which tells a common heading from one
 *    classification of its bytes) are the -TITLE found first, then the
 *    heading read up to it, whole (64 bytes loadable) and word by word: the
 *    same parts, the same end, the same first bad byte; and read again
 *    from the shape of the input's last common heading before it, the same;
 *  - at each start of bare lines: the -TITLE they are read up to lies
 *    after them with no '-' between, and looked for back from that -TITLE
 *    they start at the same place;
 *  - each message parsed with recognition on: its envelope's parts lie in
 *    its span and before its first field, so that no field holds envelope
 *    text. */
#include "fuzz_common.h"
#include "lexer.h"

static int same_slice(adexp_slice a, adexp_slice b)
{
    return a.ptr == b.ptr && a.len == b.len;
}

static void same_parts(const adexp_envelope *a, const adexp_envelope *b)
{
    FUZZ_CHECK(a->present == b->present && a->form == b->form);
    FUZZ_CHECK(same_slice(a->transmission_id, b->transmission_id));
    FUZZ_CHECK(same_slice(a->priority, b->priority));
    FUZZ_CHECK(same_slice(a->addressees, b->addressees));
    FUZZ_CHECK(same_slice(a->filing_time, b->filing_time));
    FUZZ_CHECK(same_slice(a->originator, b->originator));
    for (int k = 0; k < 3; k++)
        FUZZ_CHECK(same_slice(a->text[k], b->text[k]));
}

static void check_heading(const char *b, size_t len, size_t start, lexer_heading_shape *seen)
{
    lexer_signal sig;
    size_t end = lexer_envelope_end(b, len, start + 1, &sig);
    adexp_envelope both = {0}, whole = {0}, words = {0};
    size_t bad_both, bad_whole, bad_words, first_both;
    size_t at_both =
        lexer_envelope_text(b, end, len, start, &both, &bad_both, &first_both, NULL);
    size_t first = lexer_text_title(b, end, start + 1);
    FUZZ_CHECK(first_both == first);
    size_t at_whole = lexer_envelope_heading(b, first, len, start, &whole, &bad_whole);
    size_t at_words = lexer_envelope_heading(b, first, 0, start, &words, &bad_words);
    FUZZ_CHECK(at_both == at_whole && at_whole == at_words);
    FUZZ_CHECK(bad_both == bad_whole && bad_whole == bad_words);
    FUZZ_CHECK(at_both <= first && first <= end);
    same_parts(&both, &whole);
    same_parts(&whole, &words);
    /* read from the input's last common heading's shape: the same */
    adexp_envelope known = {0};
    size_t bad_known, first_known;
    size_t at_known =
        lexer_envelope_text(b, end, len, start, &known, &bad_known, &first_known, seen);
    FUZZ_CHECK(at_known == at_both && bad_known == bad_both && first_known == first_both);
    same_parts(&known, &both);
}

/* The part s lies in the message's span, before its first field. */
static void part_in_heading(const adexp_msg *m, adexp_slice s)
{
    if (!s.ptr)
        return;
    const char *from = m->fields ? m->fields->keyword.ptr : NULL;
    FUZZ_CHECK(s.len > 0);
    FUZZ_CHECK(!from || s.ptr + s.len <= from);
}

static void check_messages(const char *b, size_t len)
{
    adexp_options o = adexp_options_default();
    o.envelope = ADEXP_ENVELOPE_AFTN;
    adexp_parser *p = adexp_parser_new(&o, NULL);
    FUZZ_CHECK(p != NULL);
    adexp_arena a;
    adexp_arena_init(&a, NULL);
    adexp_parser_reset(p, b, len);
    adexp_msg m;
    while (adexp_parser_next(p, &a, &m) != ADEXP_END) {
        const adexp_envelope *e = &m.envelope;
        const adexp_slice parts[] = {e->transmission_id, e->priority, e->addressees,
                                     e->filing_time, e->originator,
                                     e->text[0], e->text[1], e->text[2]};
        for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
            if (!parts[k].ptr)
                continue;
            FUZZ_CHECK(e->present);
            FUZZ_CHECK(parts[k].ptr >= b + m.offset &&
                       parts[k].ptr + parts[k].len <= b + m.offset + m.length);
            part_in_heading(&m, parts[k]);
        }
        adexp_arena_reset(&a);
    }
    adexp_arena_free(&a);
    adexp_parser_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *b = (const char *)data;
    int starts = 0;
    lexer_heading_shape seen = {0};
    for (size_t i = 0; i < size && starts < 64; i++) {
        size_t t = lexer_bare_heading(b, size, i, NULL);
        if (t != (size_t)-1) {
            FUZZ_CHECK(t > i && t < size && !memchr(b + i, '-', t - i));
            if (i > 0 && (b[i - 1] == '\n' || b[i - 1] == '\r'))
                FUZZ_CHECK(lexer_bare_before(b, size, i - 1, t, NULL) == i);
        }
        if (lexer_envelope_at(b, size, i)) {
            check_heading(b, size, i, &seen);
            starts++;
        }
    }
    check_messages(b, size);
    return 0;
}
