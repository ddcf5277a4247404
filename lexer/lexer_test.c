/* Lexer tests: every trap of the format, with exact kinds, slices, offsets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lexer.h"

typedef struct expect {
    tok_kind kind;
    const char *text;          /* expected slice */
    size_t offset;
    adexp_status code;
} expect;

#define KW(t, o) {TOK_KEYWORD, t, o, ADEXP_OK}
#define VAL(t, o) {TOK_VALUE, t, o, ADEXP_OK}
#define END_OF(o) {TOK_EOF, "", o, ADEXP_OK}

/* Lex src from an exactly-sized heap copy (no NUL after it, so a sanitizer
 * catches any over-read) and compare with the n expected tokens. */
static void check_tokens(const char *src, const expect *want, size_t n)
{
    size_t len = strlen(src);
    char *buf = malloc(len ? len : 1);
    assert_non_null(buf);
    memcpy(buf, src, len);
    lexer lx;
    lexer_init(&lx, buf, len, ADEXP_DEFAULT_MAX_KEYWORD_LEN);
    for (size_t i = 0; i < n; i++) {
        token t;
        lexer_next(&lx, &t);
        size_t wl = strlen(want[i].text);
        if (t.kind != want[i].kind || t.len != wl ||
            memcmp(t.ptr, want[i].text, wl) != 0 || t.offset != want[i].offset ||
            t.code != want[i].code)
            fail_msg("token %zu: got kind %d '%.*s' at %zu code %d; want kind %d "
                     "'%s' at %zu code %d", i, t.kind, (int)t.len, t.ptr, t.offset,
                     t.code, want[i].kind, want[i].text, want[i].offset,
                     want[i].code);
    }
    free(buf);
}

#define CHECK(src, ...)                                                     \
    do {                                                                    \
        const expect w_[] = {__VA_ARGS__};                                  \
        check_tokens(src, w_, sizeof w_ / sizeof w_[0]);                    \
    } while (0)

static void test_basic_fields(void **state)
{
    (void)state;
    CHECK("-TITLE IFPL\n-ARCID DLH66T\n",
          KW("TITLE", 0), VAL("IFPL", 7), KW("ARCID", 12), VAL("DLH66T", 19),
          END_OF(26), END_OF(26));
}

static void test_separators_after_dash(void **state)
{
    (void)state;
    /* "- TITLE", "-\tTITLE", "-\nTITLE" and "-\r\n  TITLE" all open a field */
    CHECK("- TITLE FSA -\tADEP LTAC -\nADES LSZH -\r\n  EOBT 0600",
          KW("TITLE", 0), VAL("FSA", 8), KW("ADEP", 12), VAL("LTAC", 19),
          KW("ADES", 24), VAL("LSZH", 31), KW("EOBT", 36), VAL("0600", 46),
          END_OF(50));
}

static void test_no_separator_before_dash(void **state)
{
    (void)state;
    CHECK("-TITLE IFPL-BEGIN ADDR-FAC CFMUTACT-END ADDR",
          KW("TITLE", 0), VAL("IFPL", 7), KW("BEGIN", 11), VAL("ADDR", 18),
          KW("FAC", 22), VAL("CFMUTACT", 27), KW("END", 35), VAL("ADDR", 40),
          END_OF(44));
}

static void test_keyword_glued_to_next_field(void **state)
{
    (void)state;
    CHECK("-PT-PTID EDDF-ORIGIN-NETWORKTYPE SITA",
          KW("PT", 0), VAL("", 3), KW("PTID", 3), VAL("EDDF", 9),
          KW("ORIGIN", 13), VAL("", 20), KW("NETWORKTYPE", 20), VAL("SITA", 33),
          END_OF(37));
}

static void test_keyword_at_end_of_input(void **state)
{
    (void)state;
    CHECK("-TITLE IFPL -END", KW("TITLE", 0), VAL("IFPL", 7), KW("END", 12),
          VAL("", 16), END_OF(16));
}

static void test_value_spans_lines_and_is_trimmed(void **state)
{
    (void)state;
    CHECK("-ROUTE N0417F330 NDG\r\n  UR26\tSAVIN  \r\n-RFL F330",
          KW("ROUTE", 0), VAL("N0417F330 NDG\r\n  UR26\tSAVIN", 7),
          KW("RFL", 38), VAL("F330", 43), END_OF(47));
}

static void test_keyword_glued_to_value_is_another_keyword(void **state)
{
    (void)state;
    /* "-FL250" is the keyword FL250 with an empty value, per the spec */
    CHECK("-FL250 -TO 1631", KW("FL250", 0), VAL("", 7), KW("TO", 7),
          VAL("1631", 11), END_OF(15));
}

static void test_dash_without_keyword(void **state)
{
    (void)state;
    CHECK("-TITLE X -/ABC -ADEP EDDF",
          KW("TITLE", 0), VAL("X", 7), {TOK_ERROR, "-/ABC", 9, ADEXP_E_NO_KEYWORD},
          KW("ADEP", 15), VAL("EDDF", 21), END_OF(25));
    CHECK("-TITLE X -18/PBN", KW("TITLE", 0), VAL("X", 7),
          {TOK_ERROR, "-18/PBN", 9, ADEXP_E_NO_KEYWORD}, END_OF(16));
    CHECK("- ", {TOK_ERROR, "-", 0, ADEXP_E_NO_KEYWORD}, END_OF(2));
}

static void test_text_before_first_field(void **state)
{
    (void)state;
    CHECK("  hello world\n-TITLE X", {TOK_TEXT, "hello world", 2, ADEXP_OK},
          KW("TITLE", 14), VAL("X", 21), END_OF(22));
}

static void test_msgtxt_brackets_keep_hyphens(void **state)
{
    (void)state;
    CHECK("-MSGTXT (ACH-BEL20B-LIML1050 -18/PBN/B1 (X) DOF/1)\n-COMMENT A",
          KW("MSGTXT", 0), VAL("(ACH-BEL20B-LIML1050 -18/PBN/B1 (X) DOF/1)", 8),
          KW("COMMENT", 51), VAL("A", 60), END_OF(61));
}

static void test_oldmsg_lines_starting_with_dash(void **state)
{
    (void)state;
    CHECK("-OLDMSG\n(FPL-POT742-IS\n-UDYZ0010\n-UUOO0227 UUDD)\n-TITLE X",
          KW("OLDMSG", 0), VAL("(FPL-POT742-IS\n-UDYZ0010\n-UUOO0227 UUDD)", 8),
          KW("TITLE", 49), VAL("X", 56), END_OF(57));
}

static void test_unclosed_bracket_stops_at_primary_keyword(void **state)
{
    (void)state;
    CHECK("-MSGTXT (FPL-ABC -UDYZ0010 -18/PBN\n-TITLE ACK",
          KW("MSGTXT", 0),
          {TOK_VALUE, "(FPL-ABC -UDYZ0010 -18/PBN", 8, ADEXP_E_TEXT_UNCLOSED},
          KW("TITLE", 35), VAL("ACK", 42), END_OF(45));
}

static void test_unclosed_bracket_then_closed_one(void **state)
{
    (void)state;
    /* the first '(' has no match; the second text is read up to the next
     * primary field and found balanced there */
    CHECK("-MSGTXT (A -MSGTXT (B-C) -ADEP X",
          KW("MSGTXT", 0), {TOK_VALUE, "(A", 8, ADEXP_E_TEXT_UNCLOSED},
          KW("MSGTXT", 11), VAL("(B-C)", 19), KW("ADEP", 25), VAL("X", 31),
          END_OF(32));
}

static void test_text_without_bracket(void **state)
{
    (void)state;
    CHECK("-MSGTXT FPL-ABC-IS -ADEP EDDF",
          KW("MSGTXT", 0), VAL("FPL-ABC-IS", 8), KW("ADEP", 19), VAL("EDDF", 25),
          END_OF(29));
}

static void test_any_byte_in_value(void **state)
{
    (void)state;
    static const char src[] = "-COMMENT a\0b\xff\xe2\x80\x93 \"q\" -ADEP X";
    lexer lx;
    token t;
    lexer_init(&lx, src, sizeof src - 1, 32);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_KEYWORD);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_VALUE);
    assert_int_equal(t.len, 11);
    assert_memory_equal(t.ptr, "a\0b\xff\xe2\x80\x93 \"q\"", 11);
}

static void test_keyword_limit(void **state)
{
    (void)state;
    lexer lx;
    token t;
    const char src[] = "-ABCDEFGHIJ X -TITLE Y";
    lexer_init(&lx, src, sizeof src - 1, 8);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_ERROR);
    assert_int_equal(t.code, ADEXP_E_KEYWORD_LIMIT);
    assert_int_equal(t.offset, 0);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_KEYWORD);
    assert_int_equal(t.offset, 14);
}

static void test_empty_and_blank_input(void **state)
{
    (void)state;
    CHECK("", END_OF(0), END_OF(0));
    CHECK(" \r\n\t\n", END_OF(5));
}

static void test_entry_and_skip_to_title(void **state)
{
    (void)state;
    const char src[] = "-TITLE A -BEGIN X -ZZZ 1 -TITLEX 2 -TITLE B";
    lexer lx;
    token t;
    lexer_init(&lx, src, sizeof src - 1, 32);
    lexer_next(&lx, &t);
    assert_non_null(t.entry);
    assert_string_equal(t.entry->keyword, "TITLE");
    lexer_next(&lx, &t);
    lexer_skip_to_title(&lx);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_KEYWORD);
    assert_int_equal(t.offset, 35);
    lexer_skip_to_title(&lx);
    lexer_next(&lx, &t);
    assert_int_equal(t.kind, TOK_EOF);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_fields),
        cmocka_unit_test(test_separators_after_dash),
        cmocka_unit_test(test_no_separator_before_dash),
        cmocka_unit_test(test_keyword_glued_to_next_field),
        cmocka_unit_test(test_keyword_at_end_of_input),
        cmocka_unit_test(test_value_spans_lines_and_is_trimmed),
        cmocka_unit_test(test_keyword_glued_to_value_is_another_keyword),
        cmocka_unit_test(test_dash_without_keyword),
        cmocka_unit_test(test_text_before_first_field),
        cmocka_unit_test(test_msgtxt_brackets_keep_hyphens),
        cmocka_unit_test(test_oldmsg_lines_starting_with_dash),
        cmocka_unit_test(test_unclosed_bracket_stops_at_primary_keyword),
        cmocka_unit_test(test_unclosed_bracket_then_closed_one),
        cmocka_unit_test(test_text_without_bracket),
        cmocka_unit_test(test_any_byte_in_value),
        cmocka_unit_test(test_keyword_limit),
        cmocka_unit_test(test_empty_and_blank_input),
        cmocka_unit_test(test_entry_and_skip_to_title),
    };
    return cmocka_run_group_tests_name("lexer", tests, NULL, NULL);
}
