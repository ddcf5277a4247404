/* Tests of the generated ADEXP field dictionary (dict_table.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "adexp.h"
#include "dict.h"
#include "dict_ids.h"

/* 622 distinct keywords in the Edition 3.1 tables (625 rows: EVENT, REF
 * and REFID are each defined twice) plus the syntax keywords BEGIN, END. */
#define EXPECTED_COUNT 624

/* Reference answer: linear search over the table. */
static const dict_entry *slow_lookup(const char *kw, size_t len)
{
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *e = &dict_table[i];
        if (e->len == len && memcmp(e->keyword, kw, len) == 0)
            return e;
    }
    return NULL;
}

/* Look kw up from a heap buffer of exactly its length (no NUL after it),
 * so that ASan catches any read past the end. */
static const dict_entry *lookup_exact(const char *kw, size_t len)
{
    char *buf = malloc(len ? len : 1);
    assert_non_null(buf);
    if (len)
        memcpy(buf, kw, len);
    const dict_entry *e = dict_lookup(buf, len);
    free(buf);
    return e;
}

static const dict_entry *get(const char *kw)
{
    const dict_entry *e = dict_lookup(kw, strlen(kw));
    assert_non_null(e);
    assert_string_equal(e->keyword, kw);
    return e;
}

static void assert_allows(const char *parent, const char *child)
{
    const dict_entry *p = get(parent);
    const dict_entry *c = get(child);
    if (!dict_allows(p, dict_id(c)))
        fail_msg("%s should allow %s", parent, child);
}

static void test_count(void **state)
{
    (void)state;
    assert_int_equal(dict_count, EXPECTED_COUNT);
    assert_int_equal(DICT_COUNT, EXPECTED_COUNT);
}

static void test_table_well_formed(void **state)
{
    (void)state;
    size_t maxlen = 0;
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *e = &dict_table[i];
        assert_non_null(e->keyword);
        assert_int_equal(strlen(e->keyword), e->len);
        assert_true(e->len >= 1);
        for (size_t j = 0; j < e->len; j++) {
            char c = e->keyword[j];
            assert_true((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
        }
        if (e->len > maxlen)
            maxlen = e->len;
        if (i > 0)
            assert_true(strcmp(dict_table[i - 1].keyword, e->keyword) < 0);
        assert_int_equal(dict_id(e), i);
        assert_true(e->level <= DICT_SYNTAX);
        assert_true(e->kind <= ADEXP_LIST);
        assert_int_equal(e->flags & ~(unsigned)(DICT_TEXT | DICT_MSG_LIST), 0);
        assert_non_null(e->value_class);
        if (e->nsub == 0) {
            assert_null(e->sub);
        } else {
            assert_non_null(e->sub);
            assert_true(e->kind != ADEXP_BASIC);
            for (size_t j = 0; j < e->nsub; j++) {
                assert_true(e->sub[j] < dict_count);
                if (j > 0)
                    assert_true(e->sub[j - 1] < e->sub[j]);
                assert_true(dict_allows(e, e->sub[j]));
            }
        }
        /* Every compound and list names its content, except the lists of
         * whole messages. */
        if (e->kind != ADEXP_BASIC && !(e->flags & DICT_MSG_LIST))
            assert_true(e->nsub > 0);
    }
    assert_int_equal(maxlen, DICT_MAX_KEYWORD_LEN);
}

/* The bitmaps say exactly what the sorted sub arrays say, for every pair. */
static void test_allows_matches_sub(void **state)
{
    (void)state;
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *p = &dict_table[i];
        size_t j = 0;
        for (size_t c = 0; c < dict_count; c++) {
            int listed = j < p->nsub && p->sub[j] == c;
            j += listed;
            assert_int_equal(dict_allows_entry(p, &dict_table[c]), listed);
            assert_int_equal(dict_allows(p, (uint16_t)c), listed);
        }
        assert_int_equal(j, p->nsub);
        assert_false(dict_allows(p, (uint16_t)dict_count));
        assert_false(dict_allows(p, UINT16_MAX));
    }
}

static void test_roundtrip(void **state)
{
    (void)state;
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *e = &dict_table[i];
        assert_ptr_equal(dict_lookup(e->keyword, e->len), e);
        assert_ptr_equal(lookup_exact(e->keyword, e->len), e);
    }
}

static void test_ids_header(void **state)
{
    (void)state;
    assert_string_equal(dict_table[DICT_ID_TITLE].keyword, "TITLE");
    assert_string_equal(dict_table[DICT_ID_BEGIN].keyword, "BEGIN");
    assert_string_equal(dict_table[DICT_ID_END].keyword, "END");
    assert_string_equal(dict_table[DICT_ID_RTEPTS].keyword, "RTEPTS");
    assert_string_equal(dict_table[DICT_ID_PLANNEDPOSITION].keyword,
                        "PLANNEDPOSITION");
    assert_int_equal(DICT_ID_AABD, 0);
    assert_int_equal(DICT_ID_YPIST, DICT_COUNT - 1);
}

static void test_unknown_words(void **state)
{
    (void)state;
    static const char *const unknown[] = {
        "TITL", "TITLEX", "FL250", "title", "Title", "-TITLE", "TITLE ",
        " TITLE", "A", "Z", "ZZZZ", "IFPL", "ROUTEX", "XROUTE", "PTIDX",
        "CLEARED", "ISPASS", "PLANNEDPOSITIONX", "BEGINX", "ENDX",
    };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *w = unknown[i];
        if (dict_lookup(w, strlen(w)) != NULL)
            fail_msg("'%s' should be unknown", w);
        assert_null(lookup_exact(w, strlen(w)));
    }
    /* Empty word, NULL pointer. */
    assert_null(dict_lookup("", 0));
    assert_null(dict_lookup("TITLE", 0));
    assert_null(dict_lookup(NULL, 0));
    assert_null(dict_lookup(NULL, 5));
    assert_null(lookup_exact("", 0));
    /* A keyword with a NUL inside or after it is not the keyword. */
    assert_null(dict_lookup("TITLE\0", 6));
    assert_null(dict_lookup("TI\0LE", 5));

    /* Long runs of one letter, from a buffer without a NUL. */
    char *big = malloc(1000);
    assert_non_null(big);
    memset(big, 'A', 1000);
    assert_null(dict_lookup(big, 1000));
    for (size_t n = 1; n <= 40; n++)
        assert_ptr_equal(dict_lookup(big + 1000 - n, n),
                         slow_lookup(big + 1000 - n, n));
    free(big);
    assert_null(lookup_exact("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 41));
    /* Huge lengths are refused before any byte is read. */
    assert_null(dict_lookup("AD", (size_t)-1));
    assert_null(dict_lookup("AD", DICT_MAX_KEYWORD_LEN + 1));
}

/* Prefixes, one-byte extensions and one-byte changes of every keyword
 * answer exactly like a linear search. */
static void test_near_misses(void **state)
{
    (void)state;
    char buf[DICT_MAX_KEYWORD_LEN + 2];
    static const char extra[] = "AZ09X-/ ";
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *e = &dict_table[i];
        memcpy(buf, e->keyword, e->len);
        for (size_t n = 0; n < e->len; n++)
            assert_ptr_equal(lookup_exact(buf, n), slow_lookup(buf, n));
        if (e->len < DICT_MAX_KEYWORD_LEN) {
            for (size_t x = 0; x < sizeof extra - 1; x++) {
                buf[e->len] = extra[x];
                assert_ptr_equal(lookup_exact(buf, e->len + 1u),
                                 slow_lookup(buf, e->len + 1u));
            }
        } else {
            buf[e->len] = 'X';
            assert_null(dict_lookup(buf, e->len + 1u));
        }
        for (size_t p = 0; p < e->len; p++) {
            char saved = buf[p];
            for (char c = '0'; c <= 'Z'; c++) {
                if (c == ':')
                    c = 'A';
                buf[p] = c;
                assert_ptr_equal(dict_lookup(buf, e->len),
                                 slow_lookup(buf, e->len));
            }
            if (saved >= 'A' && saved <= 'Z') {
                buf[p] = (char)(saved - 'A' + 'a');   /* lower case */
                assert_null(dict_lookup(buf, e->len));
            }
            buf[p] = saved;
        }
    }
}

static void test_kinds_and_relations(void **state)
{
    (void)state;
    const dict_entry *e;

    e = get("TITLE");
    assert_int_equal(e->level, DICT_PRIMARY);
    assert_int_equal(e->kind, ADEXP_BASIC);
    assert_int_equal(e->nsub, 0);
    assert_string_equal(e->value_class, "titleid");

    e = get("RTEPTS");
    assert_int_equal(e->level, DICT_PRIMARY);
    assert_int_equal(e->kind, ADEXP_LIST);
    assert_int_equal(e->nsub, 3);
    assert_allows("RTEPTS", "PT");
    assert_allows("RTEPTS", "AD");
    assert_allows("RTEPTS", "VEC");
    assert_false(dict_allows(e, DICT_ID_PTID));

    e = get("PT");
    assert_int_equal(e->level, DICT_SUBFIELD);
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_allows("PT", "PTID");
    assert_allows("PT", "FL");
    assert_allows("PT", "ETO");
    assert_allows("PT", "TO");
    assert_allows("PT", "SFL");
    assert_false(dict_allows(e, DICT_ID_PT));
    assert_false(dict_allows(e, DICT_ID_ARCID));
    /* what the parser reads of a route's points without the dictionary
     * (fused_points): PT a compound, PTID, FL and ETO basic, none text */
    assert_false(e->flags & DICT_TEXT);
    static const char *const point_subs[] = {"PTID", "FL", "ETO"};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(get(point_subs[i])->kind, ADEXP_BASIC);
        assert_false(get(point_subs[i])->flags & DICT_TEXT);
    }

    e = get("REFDATA");
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_int_equal(e->nsub, 3);
    assert_allows("REFDATA", "SENDER");
    assert_allows("REFDATA", "RECVR");
    assert_allows("REFDATA", "SEQNUM");
    assert_false(dict_allows(e, DICT_ID_FAC));

    e = get("MSGREF");
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_allows("MSGREF", "SENDER");
    assert_allows("MSGREF", "RECVR");
    assert_allows("MSGREF", "SEQNUM");

    e = get("SENDER");
    assert_int_equal(e->level, DICT_SUBFIELD);
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_int_equal(e->nsub, 1);
    assert_allows("SENDER", "FAC");
    e = get("RECVR");
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_allows("RECVR", "FAC");

    e = get("ADDR");
    assert_int_equal(e->kind, ADEXP_LIST);
    assert_int_equal(e->nsub, 1);
    assert_allows("ADDR", "FAC");

    e = get("ESTDATA");
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_int_equal(e->nsub, 4);
    assert_allows("ESTDATA", "PTID");
    assert_allows("ESTDATA", "ETO");
    assert_allows("ESTDATA", "FL");
    assert_allows("ESTDATA", "SFL");

    e = get("GEO");
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_allows("GEO", "GEOID");
    assert_allows("GEO", "LATTD");
    assert_allows("GEO", "LONGTD");
    /* what the parser reads of -ESTDATA and -GEO without the dictionary
     * (three_at): compounds, their three usual subfields basic, none text */
    static const char *const three_subs[] = {"PTID", "ETO", "FL", "GEOID", "LATTD", "LONGTD"};
    assert_false(get("ESTDATA")->flags & DICT_TEXT);
    assert_false(e->flags & DICT_TEXT);
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(get(three_subs[i])->kind, ADEXP_BASIC);
        assert_false(get(three_subs[i])->flags & DICT_TEXT);
    }

    e = get("ORIGIN");
    assert_allows("ORIGIN", "NETWORKTYPE");
    assert_allows("ORIGIN", "FAC");

    assert_allows("EQCST", "EQPT");
    assert_allows("EQCST", "SUREQPT");
    assert_int_equal(get("EQCST")->kind, ADEXP_LIST);
    assert_allows("IFPDLIST", "IFPDLONG");
    assert_allows("RFPDLIST", "RFPDLONG");
    assert_allows("REGLIST", "REGULATION");
    assert_allows("LACDR", "AIRROUTE");
    assert_allows("AIRROUTE", "FLBLOCK");
    assert_allows("FLBLOCK", "FL");
    assert_allows("COORDATA", "TFL");

    e = get("FAC");
    assert_int_equal(e->level, DICT_SUBFIELD);
    assert_int_equal(e->kind, ADEXP_BASIC);
    assert_int_equal(get("ARCID")->kind, ADEXP_BASIC);
    assert_int_equal(get("ROUTE")->flags, 0);
    assert_int_equal(get("COMMENT")->flags, 0);

    /* Basic fields allow nothing; NULL parent allows nothing. */
    assert_false(dict_allows(get("TITLE"), DICT_ID_FAC));
    assert_false(dict_allows(NULL, DICT_ID_FAC));
}

static void test_duplicates_merged(void **state)
{
    (void)state;
    const dict_entry *e = get("EVENT");
    assert_int_equal(e->level, DICT_PRIMARY);
    assert_int_equal(e->kind, ADEXP_BASIC);

    e = get("REF");
    assert_int_equal(e->level, DICT_PRIMARY);
    assert_int_equal(e->kind, ADEXP_COMPOUND);
    assert_allows("REF", "REFID");
    assert_allows("REF", "PTID");
    assert_allows("REF", "BRNG");
    assert_allows("REF", "DISTNC");
    assert_allows("REF", "REF1ID");   /* from the reserved definition */

    e = get("REFID");
    assert_int_equal(e->level, DICT_SUBFIELD);
    assert_int_equal(e->kind, ADEXP_BASIC);
}

static void test_flags(void **state)
{
    (void)state;
    static const char *const text[] = {
        "MSGTXT", "OLDMSG", "MSGBODY", "XFPLTXT", "PREPROCTXT", "POSTPROCTXT",
    };
    size_t ntext = 0, nmsg = 0;
    for (size_t i = 0; i < dict_count; i++) {
        if (dict_table[i].flags & DICT_TEXT)
            ntext++;
        if (dict_table[i].flags & DICT_MSG_LIST)
            nmsg++;
    }
    assert_int_equal(ntext, sizeof text / sizeof text[0]);
    assert_int_equal(nmsg, 2);
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
        const dict_entry *e = get(text[i]);
        assert_int_equal(e->flags, DICT_TEXT);
        assert_int_equal(e->kind, ADEXP_BASIC);
    }
    assert_string_equal(get("MSGTXT")->value_class, "icaomsg");

    const dict_entry *e = get("IFPDLONG");
    assert_int_equal(e->flags, DICT_MSG_LIST);
    assert_int_equal(e->kind, ADEXP_LIST);
    assert_int_equal(e->nsub, 0);
    e = get("RFPDLONG");
    assert_int_equal(e->flags, DICT_MSG_LIST);
    assert_int_equal(e->kind, ADEXP_LIST);
    assert_int_equal(e->nsub, 0);
}

static void test_syntax_keywords(void **state)
{
    (void)state;
    const dict_entry *b = get("BEGIN");
    const dict_entry *e = get("END");
    assert_int_equal(b->level, DICT_SYNTAX);
    assert_int_equal(e->level, DICT_SYNTAX);
    assert_int_equal(b->kind, ADEXP_BASIC);
    assert_int_equal(e->kind, ADEXP_BASIC);
    assert_int_equal(b->nsub, 0);
    assert_int_equal(e->nsub, 0);
    size_t nsyntax = 0;
    for (size_t i = 0; i < dict_count; i++)
        if (dict_table[i].level == DICT_SYNTAX)
            nsyntax++;
    assert_int_equal(nsyntax, 2);
}

/* parser/grammar.h relies on it: inside a list's element, a compound's own
 * subfields are its children and the list's element keyword starts the next
 * item; no compound reachable from a list's elements allows a keyword the
 * list holds directly, so the two never meet. */
static void reach_no_item(const dict_entry *list, const dict_entry *e, int depth)
{
    assert_true(depth < 16);
    for (size_t j = 0; e->kind == ADEXP_COMPOUND && j < e->nsub; j++) {
        const dict_entry *s = &dict_table[e->sub[j]];
        if (dict_allows(list, e->sub[j]))
            fail_msg("%s: %s allows %s, an item of the list", list->keyword, e->keyword,
                     s->keyword);
        reach_no_item(list, s, depth + 1);
    }
}

static void test_elements_never_allow_items(void **state)
{
    (void)state;
    for (size_t i = 0; i < dict_count; i++) {
        const dict_entry *l = &dict_table[i];
        if (l->kind != ADEXP_LIST)
            continue;
        for (size_t j = 0; j < l->nsub; j++)
            reach_no_item(l, &dict_table[l->sub[j]], 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_table_well_formed),
        cmocka_unit_test(test_allows_matches_sub),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_ids_header),
        cmocka_unit_test(test_unknown_words),
        cmocka_unit_test(test_near_misses),
        cmocka_unit_test(test_kinds_and_relations),
        cmocka_unit_test(test_duplicates_merged),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_elements_never_allow_items),
        cmocka_unit_test(test_syntax_keywords),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
