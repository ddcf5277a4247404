/* fuzz_paths: the parser's runs against its general code alone (parser.c,
 * build.c and descent.c built with ADEXP_PARSER_NO_RUN, symbols renamed general_*, see
 * parser/meson.build): the same messages, nodes, errors and statuses for
 * any input and limits, with the arena reset per message or not. The runs
 * read only what parser/grammar.h calls a plain child; the corpus and
 * fuzz/adexp.dict hold the shapes where it says anything else (local fields
 * ending route points, primary keywords in them, misplaced subfields,
 * -END X junk, FF, VT, a byte order mark). The flags compared include
 * ADEXP_FIELD_MISPLACED; ADEXP_FIELD_USUAL_POINT, the runs' alone, is
 * checked for what it claims. */
#include "fuzz_common.h"
#include "usual_point.h"

adexp_parser *general_adexp_parser_new(const adexp_options *opts,
                                       const adexp_allocator *hooks);
void general_adexp_parser_free(adexp_parser *p);
void general_adexp_parser_reset(adexp_parser *p, const char *buf, size_t len);
adexp_status general_adexp_parser_next(adexp_parser *p, adexp_arena *arena, adexp_msg *msg);

static void same_tree(const adexp_field *a, const adexp_field *b)
{
    for (; a || b; a = a->next, b = b->next) {
        FUZZ_CHECK(a && b);
        FUZZ_CHECK(a->keyword.ptr == b->keyword.ptr && a->keyword.len == b->keyword.len);
        FUZZ_CHECK(a->value.ptr == b->value.ptr && a->value.len == b->value.len);
        FUZZ_CHECK(a->offset == b->offset && a->nchildren == b->nchildren);
        /* the runs' claim of a point read whole, which the general code
         * never makes: all else the same */
        FUZZ_CHECK(a->kind == b->kind && (a->flags & ~ADEXP_FIELD_USUAL_POINT) == b->flags &&
                   a->dict_id == b->dict_id);
        FUZZ_CHECK(!(a->flags & ADEXP_FIELD_USUAL_POINT) || usual_point_holds(a));
        same_tree(a->child, b->child);
    }
}

static void same_msg(const adexp_msg *a, const adexp_msg *b)
{
    FUZZ_CHECK(a->nfields == b->nfields && a->offset == b->offset);
    FUZZ_CHECK(a->length == b->length && a->index == b->index);
    FUZZ_CHECK(a->nerrors == b->nerrors && a->nerrors_total == b->nerrors_total);
    for (size_t i = 0; i < a->nerrors; i++) {
        const adexp_error *x = &a->errors[i], *y = &b->errors[i];
        FUZZ_CHECK(x->code == y->code && x->offset == y->offset);
        FUZZ_CHECK(x->line == y->line && x->column == y->column);
    }
    same_tree(a->fields, b->fields);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    adexp_options o = fuzz_options(&data, &size);
    int reset = !(size & 1);
    char *buf = fuzz_copy(data, size);
    adexp_parser *p = adexp_parser_new(&o, NULL), *g = general_adexp_parser_new(&o, NULL);
    FUZZ_CHECK(p && g);
    adexp_arena ap, ag;
    adexp_arena_init(&ap, NULL);
    adexp_arena_init(&ag, NULL);
    adexp_parser_reset(p, buf, size);
    general_adexp_parser_reset(g, buf, size);
    for (size_t n = 0; n <= size + 1; n++) {
        adexp_msg mp, mg;
        if (reset) {
            adexp_arena_reset(&ap);
            adexp_arena_reset(&ag);
        }
        adexp_status sp = adexp_parser_next(p, &ap, &mp);
        FUZZ_CHECK(sp == general_adexp_parser_next(g, &ag, &mg));
        if (sp == ADEXP_END)
            break;
        same_msg(&mp, &mg);
    }
    adexp_arena_free(&ap);
    adexp_arena_free(&ag);
    adexp_parser_free(p);
    general_adexp_parser_free(g);
    free(buf);
    return 0;
}
