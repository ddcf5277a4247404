/* fuzz_roundtrip: every message that parses without error is written back
 * in both layouts, values kept and folded, and must read back (with the
 * default limits, which a message within smaller ones also meets) as the
 * same tree, node by node with every flag, and as one message; the writer
 * may refuse no such message, with verify on or off. Written in its
 * envelope too (verify on), it reads back with the same envelope (its JSON
 * object, the form it came in included), or the writer refuses it and
 * leaves the output as it was: an envelope part of control bytes the
 * writer cannot put back where the parser took it from is refused
 * (WRITE_VALUE at envelope.*, or WRITE_SHAPE), never written otherwise.
 * Messages with errors are written too: the writer may refuse them, but
 * then it leaves the output as it was. One with an ENVELOPE error (a
 * garbled heading, NNNN missing) written in its envelope with verify off
 * (the CLI's way) reads back with the same envelope and an ENVELOPE error,
 * or is refused at envelope.*. Every message is written by write_parsed
 * too, the batch driver's: the same status, the same text. */
#include "fuzz_common.h"
#include "fuzz_envelope.h"
#include "write_parsed.h"

static void same_as_parsed(const adexp_msg *m, adexp_buf *out, adexp_buf *out2,
                           const adexp_write_options *o)
{
    out2->len = 0;
    adexp_status st = write_parsed(out2, m, o, NULL);
    FUZZ_CHECK((st == ADEXP_OK) == (out->len > 0) && out->len == out2->len &&
               (out->len == 0 || memcmp(out->data, out2->data, out->len) == 0));
}

static void round_trip(const adexp_msg *m, adexp_parser *back, adexp_arena *arena,
                       adexp_buf *out, const adexp_write_options *o)
{
    adexp_write_error err;
    out->len = 0;
    adexp_status st = adexp_write(out, m, o, &err);
    /* without verify, only the envelope's own check may refuse */
    if (o->envelope && (st == ADEXP_E_WRITE_VALUE || (o->verify && st == ADEXP_E_WRITE_SHAPE))) {
        FUZZ_CHECK(o->verify || strncmp(err.path, "envelope.", 9) == 0);
        FUZZ_CHECK(out->len == 0);
        return;
    }
    FUZZ_CHECK(st == ADEXP_OK);
    adexp_parser_reset(back, out->data, out->len);
    adexp_msg b;
    adexp_arena_reset(arena);
    FUZZ_CHECK(adexp_parser_next(back, arena, &b) == ADEXP_OK);
    unsigned how = ADEXP_SAME_ALL_FLAGS | (o->fold ? ADEXP_SAME_FOLD : 0);
    FUZZ_CHECK(adexp_tree_same(m->fields, b.fields, how, NULL));
    if (o->envelope)
        fuzz_same_envelope(m, &b);
    else
        FUZZ_CHECK(!b.envelope.present);
    FUZZ_CHECK(adexp_parser_next(back, arena, &b) == ADEXP_END);
}

static int has_envelope_error(const adexp_msg *m)
{
    for (size_t i = 0; i < m->nerrors; i++)
        if (m->errors[i].code == ADEXP_E_ENVELOPE)
            return 1;
    return 0;
}

/* m, with an ENVELOPE error, written in its envelope without verify. */
static void garbled_round_trip(const adexp_msg *m, adexp_parser *back, adexp_arena *arena,
                               adexp_buf *out, const adexp_write_options *o)
{
    out->len = 0;
    adexp_status st = adexp_write(out, m, o, NULL);
    if (st != ADEXP_OK) {   /* at envelope.*, or for its fields */
        FUZZ_CHECK(out->len == 0);
        return;
    }
    adexp_parser_reset(back, out->data, out->len);
    adexp_msg b;
    adexp_arena_reset(arena);
    adexp_parser_next(back, arena, &b);
    fuzz_same_envelope(m, &b);
    FUZZ_CHECK(has_envelope_error(&b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    adexp_options opt = fuzz_options(&data, &size);
    char *buf = fuzz_copy(data, size);
    adexp_parser *p = adexp_parser_new(&opt, NULL), *back = adexp_parser_new(NULL, NULL);
    FUZZ_CHECK(p && back);
    adexp_arena arena, arena2;
    adexp_arena_init(&arena, NULL);
    adexp_arena_init(&arena2, NULL);
    adexp_buf out, out2;
    adexp_buf_init(&out, NULL);
    adexp_buf_init(&out2, NULL);
    adexp_parser_reset(p, buf, size);
    adexp_msg m;
    for (size_t n = 0; n <= size + 1 && adexp_parser_next(p, &arena, &m) != ADEXP_END; n++) {
        for (int i = 0; i < 8; i++) {
            adexp_write_options o = adexp_write_options_default();
            o.layout = i & 1 ? ADEXP_LAYOUT_IFPS : ADEXP_LAYOUT_LINE;
            o.fold = (i >> 1) & 1;
            o.verify = i >= 4 && i < 7;
            o.envelope = i >= 5;   /* 5: values kept, IFPS; 6: folded, line;
                                      7: IFPS folded, no verify (the CLI's) */
            if (m.nerrors_total == 0) {
                round_trip(&m, back, &arena2, &out, &o);
            } else if (o.envelope && !o.verify && (m.envelope.present || m.envelope.closed) &&
                       has_envelope_error(&m)) {
                garbled_round_trip(&m, back, &arena2, &out, &o);
            } else {
                out.len = 0;
                if (adexp_write(&out, &m, &o, NULL) != ADEXP_OK)
                    FUZZ_CHECK(out.len == 0);
            }
            same_as_parsed(&m, &out, &out2, &o);
        }
        adexp_arena_reset(&arena);
    }
    adexp_buf_free(&out);
    adexp_buf_free(&out2);
    adexp_arena_free(&arena);
    adexp_arena_free(&arena2);
    adexp_parser_free(p);
    adexp_parser_free(back);
    free(buf);
    return 0;
}
