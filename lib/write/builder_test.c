/* The message builder: the tree it makes is the one the parser makes of the
 * same text (kinds, flags, counts, view), calls out of order and bad
 * keywords fail and stick, and out-of-memory is reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "adexp.h"

static const char text[] =
    "-TITLE IFPL -ARCID DLH66T -ALTNZ EDDV -ESTDATA -PTID XETBO -ETO 170302032300 "
    "-BEGIN RTEPTS -PT -PTID EDDM -FL F000 -PT -PTID INPUD -LOCAL 1 -END RTEPTS "
    "-BEGIN ZZLIST -FAC A -END ZZLIST -MSGTXT (FPL-DLH66T-IS) -CLEARED Y\n";

static adexp_status build(adexp_builder *b, adexp_msg *msg)
{
    adexp_builder_begin(b, "IFPL");
    adexp_builder_add(b, "ARCID", "DLH66T");
    adexp_builder_add(b, "ALTNZ", "EDDV");     /* a compound with a value */
    adexp_builder_begin_compound(b, "ESTDATA", NULL);
    adexp_builder_add(b, "PTID", "XETBO");
    adexp_builder_add(b, "ETO", "170302032300");
    adexp_builder_end_compound(b);
    adexp_builder_begin_list(b, "RTEPTS");
    adexp_builder_begin_compound(b, "PT", NULL);
    adexp_builder_add(b, "PTID", "EDDM");
    adexp_builder_add(b, "FL", "F000");
    adexp_builder_end_compound(b);
    adexp_builder_begin_compound(b, "PT", NULL);
    adexp_builder_add(b, "PTID", "INPUD");
    adexp_builder_add_n(b, "LOCALX", 5, "1 and more", 1);
    adexp_builder_end_compound(b);
    adexp_builder_end_list(b);
    adexp_builder_begin_list_n(b, "ZZLIST", 6);
    adexp_builder_add(b, "FAC", "A");
    adexp_builder_end_list(b);
    adexp_builder_add(b, "MSGTXT", "(FPL-DLH66T-IS)");
    adexp_builder_add(b, "CLEARED", "Y");
    return adexp_builder_finish(b, msg);
}

static void test_builds_what_the_parser_reads(void **state)
{
    (void)state;
    adexp_arena arena, parsed;
    adexp_arena_init(&arena, NULL);
    adexp_arena_init(&parsed, NULL);
    adexp_builder *b = adexp_builder_new(&arena);
    assert_non_null(b);
    adexp_msg m, p;
    assert_int_equal(build(b, &m), ADEXP_OK);
    assert_int_equal(adexp_parse(text, strlen(text), &parsed, &p), ADEXP_OK);
    const adexp_field *where = NULL;
    assert_true(adexp_tree_same(m.fields, p.fields, ADEXP_SAME_ALL_FLAGS, &where));
    assert_int_equal(m.nfields, p.nfields);
    assert_true(adexp_slice_eq(m.view.title, "IFPL"));
    assert_true(adexp_slice_eq(m.view.arcid, "DLH66T"));
    assert_int_equal(m.view.n_rtepts, 2);
    for (const adexp_field *x = m.fields, *y = p.fields; x; x = x->next, y = y->next) {
        assert_int_equal(x->nchildren, y->nchildren);
        assert_int_equal(x->dict_id, y->dict_id);
    }

    adexp_buf out;
    adexp_buf_init(&out, NULL);
    assert_int_equal(adexp_write(&out, &m, NULL, NULL), ADEXP_OK);
    assert_int_equal(out.len, strlen(text));
    assert_memory_equal(out.data, text, out.len);

    /* the builder goes on with the next message in the same arena */
    assert_int_equal(adexp_builder_begin(b, "ACK"), ADEXP_OK);
    assert_int_equal(adexp_builder_finish(b, &m), ADEXP_OK);
    out.len = 0;
    assert_int_equal(adexp_write(&out, &m, NULL, NULL), ADEXP_OK);
    assert_memory_equal(out.data, "-TITLE ACK\n", out.len);
    adexp_buf_free(&out);
    adexp_arena_free(&arena);
    adexp_arena_free(&parsed);
}

static void test_order_and_keywords(void **state)
{
    (void)state;
    adexp_arena arena;
    adexp_arena_init(&arena, NULL);
    adexp_builder *b = adexp_builder_new(&arena);
    adexp_msg m;
    assert_int_equal(adexp_builder_add(b, "ARCID", "X"), ADEXP_E_BUILD_ORDER);
    assert_int_equal(adexp_builder_finish(b, &m), ADEXP_E_BUILD_ORDER);

    assert_int_equal(adexp_builder_begin(b, "IFPL"), ADEXP_OK);
    assert_int_equal(adexp_builder_begin_compound(b, "ESTDATA", NULL), ADEXP_OK);
    assert_int_equal(adexp_builder_end_list(b), ADEXP_E_BUILD_ORDER);
    assert_int_equal(adexp_builder_end_compound(b), ADEXP_E_BUILD_ORDER);   /* sticks */

    assert_int_equal(adexp_builder_begin(b, "IFPL"), ADEXP_OK);   /* starts over */
    assert_int_equal(adexp_builder_begin_list(b, "RTEPTS"), ADEXP_OK);
    assert_int_equal(adexp_builder_finish(b, &m), ADEXP_E_BUILD_ORDER);

    const char *bad[] = {"arcid", "", "A-B", "BEGIN", "END", "A B"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(adexp_builder_begin(b, "IFPL"), ADEXP_OK);
        assert_int_equal(adexp_builder_add(b, bad[i], "1"), ADEXP_E_WRITE_KEYWORD);
        assert_int_equal(adexp_builder_add(b, "ARCID", "X"), ADEXP_E_WRITE_KEYWORD);
        assert_int_equal(adexp_builder_finish(b, &m), ADEXP_E_WRITE_KEYWORD);
    }
    assert_int_equal(adexp_builder_begin(b, "ifpl"), ADEXP_OK);   /* a value */
    assert_int_equal(adexp_builder_begin_list(b, "a"), ADEXP_E_WRITE_KEYWORD);
    adexp_arena_free(&arena);
}

static void *budget_alloc(void *ctx, size_t n)
{
    int *left = ctx;
    return (*left)-- > 0 ? malloc(n) : NULL;
}

static void budget_free(void *ctx, void *p, size_t n)
{
    (void)ctx;
    (void)n;
    free(p);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    int left = 1;
    adexp_allocator hooks = {budget_alloc, budget_free, &left};
    adexp_arena arena;
    adexp_arena_init(&arena, &hooks);
    adexp_builder *b = adexp_builder_new(&arena);
    assert_non_null(b);
    adexp_msg m;
    adexp_status st = ADEXP_OK;
    for (int i = 0; i < 100000 && st == ADEXP_OK; i++)
        st = adexp_builder_add(b, i ? "ROUTE" : "TITLE", "N0450F350 DCT INPUD");
    assert_int_equal(st, ADEXP_E_BUILD_ORDER);          /* no begin */
    st = adexp_builder_begin(b, "IFPL");
    for (int i = 0; i < 100000 && st == ADEXP_OK; i++)
        st = adexp_builder_add(b, "ROUTE", "N0450F350 DCT INPUD");
    assert_int_equal(st, ADEXP_E_NOMEM);
    assert_int_equal(adexp_builder_finish(b, &m), ADEXP_E_NOMEM);
    adexp_arena_free(&arena);
    left = 0;
    adexp_arena_init(&arena, &hooks);
    assert_null(adexp_builder_new(&arena));
    adexp_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builds_what_the_parser_reads),
        cmocka_unit_test(test_order_and_keywords),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
