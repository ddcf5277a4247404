/* Tests of dictionary extensions loaded at run time (dict_ext.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "dict_ext.h"
#include "dict_ids.h"

static adexp_dictionary *load(const adexp_dictionary *base, const char *text,
                              adexp_dict_error *err)
{
    return adexp_dict_load(base, text, strlen(text), err);
}

static const dict_entry *find(const adexp_dictionary *d, const char *kw)
{
    return dict_ext_lookup(d, kw, strlen(kw));
}

static int allows(const adexp_dictionary *d, const char *parent, const char *child)
{
    const dict_entry *p = find(d, parent), *c = find(d, child);
    assert_non_null(p);
    assert_non_null(c);
    return c->sub_bit != DICT_SUB_WORDS * 64 - 1 && dict_allows_entry(p, c);
}

/* With no extension row, every entry and every answer is the built-in one. */
static void test_empty_is_builtin(void **state)
{
    (void)state;
    adexp_dict_error err;
    adexp_dictionary *d = load(NULL, "# nothing\n\nkeyword\tlevel\tkind\tflags\tsubfields\tvalue_class\n", &err);
    assert_non_null(d);
    assert_int_equal(d->count, dict_count);
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *e = &d->entries[i];
        assert_ptr_equal(find(d, dict_table[i].keyword), &dict_table[i]);
        assert_int_equal(e->kind, dict_table[i].kind);
        for (size_t j = 0; j < dict_count; j++)
            if (dict_table[j].sub_bit != DICT_SUB_WORDS * 64 - 1)
                assert_int_equal(dict_allows_entry(e, &d->entries[j]),
                                 dict_allows_entry(&dict_table[i], &dict_table[j]));
    }
    assert_null(find(d, "TTO"));
    adexp_dict_free(d);
}

/* ETFMS's TTO (a new compound of known subfields), a national ISPASS added
 * to PT, a new list with new items. */
static void test_new_and_extended(void **state)
{
    (void)state;
    adexp_dict_error err;
    adexp_dictionary *d = load(NULL,
        "TTO\tprimary\tc\t-\tPTID TO FL\t-\n"
        "ISPASS\tsubfield\tb\t-\t-\tY|N\n"
        "PT\tsubfield\tc\t-\tISPASS TEAM18\t-\n"
        "TEAM18\tsubfield\tb\t-\t-\t-\r\n"
        "LOCALLIST\tprimary\tl\t-\tLOCALITEM\t-\n"
        "LOCALITEM\tsubfield\tc\t-\tPTID ISPASS\t-\n", &err);
    assert_non_null(d);
    const dict_entry *tto = find(d, "TTO");
    assert_non_null(tto);
    assert_int_equal(tto->kind, ADEXP_COMPOUND);
    assert_int_equal(tto->level, DICT_PRIMARY);
    assert_true(tto - d->entries >= (ptrdiff_t)dict_count);
    assert_true(allows(d, "TTO", "PTID"));
    assert_true(allows(d, "TTO", "TO"));
    assert_true(allows(d, "TTO", "FL"));
    assert_false(allows(d, "TTO", "ETO"));
    /* PT keeps its own subfields and gains the new ones. */
    assert_true(allows(d, "PT", "PTID"));
    assert_true(allows(d, "PT", "ETO"));
    assert_true(allows(d, "PT", "ISPASS"));
    assert_true(allows(d, "PT", "TEAM18"));
    assert_int_equal(find(d, "PT")->nsub, dict_table[DICT_ID_PT].nsub + 2);
    /* The others are untouched: ESTDATA has no ISPASS. */
    assert_false(allows(d, "ESTDATA", "ISPASS"));
    assert_true(allows(d, "ESTDATA", "PTID"));
    assert_string_equal(find(d, "ISPASS")->value_class, "Y|N");
    assert_int_equal(find(d, "LOCALLIST")->kind, ADEXP_LIST);
    assert_true(allows(d, "LOCALLIST", "LOCALITEM"));
    assert_true(allows(d, "LOCALITEM", "ISPASS"));
    /* The built-in table itself is never changed. */
    assert_false(dict_allows_entry(&dict_table[DICT_ID_PT], &d->entries[DICT_ID_PTID]) == 0);
    assert_null(dict_lookup("TTO", 3));
    adexp_dict_free(d);
}

/* Later files extend earlier ones; the result does not need its base. */
static void test_layers(void **state)
{
    (void)state;
    adexp_dict_error err;
    adexp_dictionary *a = load(NULL, "ISPASS\tsubfield\tb\t-\t-\t-\n"
                                     "PT\tsubfield\tc\t-\tISPASS\t-\n", &err);
    assert_non_null(a);
    adexp_dictionary *b = load(a, "TTO\tprimary\tc\t-\tPTID TO FL ISPASS\t-\n"
                                  "PT\tsubfield\tc\tTEXT\tTTO\tptclass\n", &err);
    assert_non_null(b);
    adexp_dict_free(a);
    assert_true(allows(b, "PT", "ISPASS"));
    assert_true(allows(b, "PT", "TTO"));
    assert_true(allows(b, "PT", "PTID"));
    assert_true(allows(b, "TTO", "ISPASS"));
    assert_string_equal(find(b, "ISPASS")->keyword, "ISPASS");
    assert_string_equal(find(b, "PT")->value_class, "ptclass");
    assert_true(find(b, "PT")->flags & DICT_TEXT);
    adexp_dict_free(b);
}

typedef struct bad_case {
    const char *text;
    unsigned line, column;
    const char *says;
} bad_case;

static void test_errors(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"TTO\tprimary\tc\t-\tPTID TO FL\n", 1, 27, "5 tab-separated columns"},
        {"# c\nTTO\tprimary\tc\t-\tPTID\t-\textra\n", 2, 24, "more than 6"},
        {"tto\tprimary\tc\t-\tPTID\t-\n", 1, 1, "A-Z and 0-9"},
        {"T-O\tprimary\tb\t-\t-\t-\n", 1, 1, "A-Z and 0-9"},
        {"TTO\tprimry\tc\t-\tPTID\t-\n", 1, 5, "level"},
        {"TTO\tprimary\tx\t-\tPTID\t-\n", 1, 13, "kind"},
        {"TTO\tprimary\tc\tBOLD\tPTID\t-\n", 1, 15, "flags"},
        {"TTO\tprimary\tc\t-\tPTID NOSUCH\t-\n", 1, 22, "NOSUCH is not defined"},
        {"TTO\tprimary\tb\t-\tPTID\t-\n", 1, 17, "basic field has no subfields"},
        {"TTO\tprimary\tc\t-\t-\t-\n", 1, 17, "needs its subfields"},
        {"ARCID\tprimary\tc\t-\tPTID\t-\n", 1, 15, "another kind"},
        {"PTID\tprimary\tb\t-\t-\t-\n", 1, 6, "another level"},
        {"BEGIN\tprimary\tb\t-\t-\t-\n", 1, 1, "cannot be extended"},
        {"TITLE\tprimary\tb\t-\t-\tx\n", 1, 1, "cannot be extended"},
        {"X\tprimary\tb\t-\t-\t-\nX\tprimary\tb\t-\t-\t-\n", 2, 1, "already defined on line 1"},
        {"X\tprimary\tb\t-\t-\t-\nY\0\tprimary\tb\t-\t-\t-\n", 2, 1, "NUL"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        adexp_dict_error err;
        const bad_case *c = &cases[i];
        size_t len = strlen(c->text);
        if (strstr(c->says, "NUL"))
            len = 34;
        adexp_dictionary *d = adexp_dict_load(NULL, c->text, len, &err);
        if (d || err.line != c->line || err.column != c->column ||
            !strstr(err.message, c->says))
            fail_msg("case %zu: got %s, %u:%u: %s", i, d ? "a dictionary" : "NULL",
                     err.line, err.column, err.message);
    }
}

/* Subfield bits run out at 255: a clear error, no overflow. */
static void test_too_many_subfields(void **state)
{
    (void)state;
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "BIG\tprimary\tc\t-\t");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(t + n, cap - n, "%sZ%d", i ? " " : "", i);
    n += (size_t)snprintf(t + n, cap - n, "\t-\n");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(t + n, cap - n, "Z%d\tsubfield\tb\t-\t-\t-\n", i);
    adexp_dict_error err;
    adexp_dictionary *d = adexp_dict_load(NULL, t, n, &err);
    assert_null(d);
    assert_non_null(strstr(err.message, "too many subfield keywords"));
    free(t);
}

static void test_file_and_null(void **state)
{
    (void)state;
    adexp_dict_error err;
    assert_null(adexp_dict_load_file(NULL, "/nonexistent/ext.tsv", &err));
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.message, "No such file"));
    assert_null(adexp_dict_load(NULL, NULL, 5, NULL));
    adexp_dictionary *d = adexp_dict_load(NULL, NULL, 0, NULL);
    assert_non_null(d);
    adexp_dict_free(d);
    adexp_dict_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_is_builtin),
        cmocka_unit_test(test_new_and_extended),
        cmocka_unit_test(test_layers),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_too_many_subfields),
        cmocka_unit_test(test_file_and_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
