/* The lexer's scans against its scalar reference build: lexer.c compiled
 * with ADEXP_LEXER_SCALAR, and with ADEXP_LEXER_NO_AVX2 (the SSE2 loop that
 * the library skips on a CPU with AVX2), symbols renamed scalar_* and sse2_*
 * (see parser/meson.build), must give exactly the same tokens as the
 * library's on testdata, a generated corpus, random inputs and every
 * truncation of them, each placed at the very end of its allocation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "ref.h"

void scalar_lexer_init(lexer *lx, const char *buf, size_t len, uint32_t max_keyword_len);
void sse2_lexer_init(lexer *lx, const char *buf, size_t len, uint32_t max_keyword_len);

static const char *testdata;

static void same_token(const field_token *ta, const field_token *tb)
{
    assert_int_equal(ta->kind, tb->kind);
    assert_int_equal(ta->code, tb->code);
    assert_ptr_equal(ta->keyword.ptr, tb->keyword.ptr);
    assert_int_equal(ta->keyword.len, tb->keyword.len);
    assert_ptr_equal(ta->value.ptr, tb->value.ptr);
    assert_int_equal(ta->value.len, tb->value.len);
    assert_int_equal(ta->offset, tb->offset);
    assert_int_equal(ta->value_offset, tb->value_offset);
    assert_ptr_equal(ta->entry, tb->entry);
}

/* Lex buf with the three builds and compare every field token. Returns the
 * count. lexer_next_field is inline: on b and c it runs their own states. */
static size_t same_tokens(const char *src, size_t len)
{
    char *buf = malloc(len ? len : 1);     /* the input ends its allocation */
    assert_non_null(buf);
    memcpy(buf, src, len);
    lexer a, b, c;
    field_token ta;
    size_t n = 0;
    lexer_init(&a, buf, len, ADEXP_DEFAULT_MAX_KEYWORD_LEN);
    scalar_lexer_init(&b, buf, len, ADEXP_DEFAULT_MAX_KEYWORD_LEN);
    sse2_lexer_init(&c, buf, len, ADEXP_DEFAULT_MAX_KEYWORD_LEN);
    do {
        ta = *lexer_next_field(&a);
        same_token(&ta, lexer_next_field(&b));
        same_token(&ta, lexer_next_field(&c));
        n++;
    } while (ta.kind != FT_EOF);
    free(buf);
    return n;
}

/* Every prefix of short inputs, and a sample of prefixes of long ones. */
static void same_tokens_truncated(const char *src, size_t len)
{
    size_t step = len > 4096 ? len / 512 : 1;
    for (size_t l = 0; l <= len; l += step)
        same_tokens(src, l);
    same_tokens(src, len);
}

static long lex_dir(const char *sub)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", testdata, sub);
    long files = ref_each_adexp(dir, same_tokens_truncated);
    assert_true(files >= 0);
    return files;
}

static void test_lexer_scan_testdata_same_tokens(void **state)
{
    (void)state;
    long files = lex_dir("messages") + lex_dir("invalid");
    if (files == 0)
        skip();
    same_tokens_truncated(ref_teivah_ifpl, ref_teivah_ifpl_len);
}

static void test_lexer_scan_generated_corpus_same_tokens(void **state)
{
    (void)state;
    char *buf;
    size_t len, *offs, n = 2000;
    assert_int_equal(ref_gen_corpus(99, n, &buf, &len, &offs), 0);
    assert_true(same_tokens(buf, len) > n);
    for (size_t i = 0; i < 50; i++)
        same_tokens_truncated(buf + offs[i], offs[i + 1] - offs[i]);
    free(buf);
    free(offs);
}

/* Random inputs over the bytes that matter to the scans: '-', separators,
 * keyword bytes and their neighbours, brackets, and keywords and values of
 * every length around 8 and 32. */
static void test_lexer_scan_random_same_tokens(void **state)
{
    (void)state;
    /* with the neighbours of the keyword ranges: / : @ [ and high-bit bytes
     * whose low 7 bits are A, Z, 0 */
    static const char alphabet[] = "----  \n\r\t\v\fAAPTIDFL09()/.X\x80:@[Z\xC1\xDA\xB0";
    uint64_t s = 12345;
    char buf[300];
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = 0, want;
        s = s * 6364136223846793005u + 1442695040888963407u;
        want = (size_t)(s >> 33) % sizeof buf;
        while (len < want) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            unsigned r = (unsigned)(s >> 33);
            if (r % 7 == 0) {          /* a field start, then a run of value */
                static const char *const starts[] = {"-PTID ", "-MSGTXT (", "-OLDMSG ",
                                                     "-TITLE ", "-PT-PTID ", "- FL "};
                size_t run = (r >> 3) % 40;
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s",
                                        starts[(r >> 12) % 6]);
                for (size_t k = 0; k < run && len < want; k++)
                    buf[len++] = (char)('A' + (r >> 8) % 26);
            } else {
                buf[len++] = alphabet[(r >> 5) % (sizeof alphabet - 1)];
            }
            if (len >= sizeof buf - 8)
                break;
        }
        same_tokens(buf, len);
    }
}

/* The 16- and 32-byte value scans at their edges: keywords on and off the
 * hot table, values of 0 to 40 bytes with every
 * mix of separators before and after them and glued or spaced next fields,
 * so the value start, its '-' and the trim fall on each byte of the load
 * and past it; then each input cut at every length (the loads need 16 or 32
 * bytes left before the end of the allocation). */
static void test_lexer_scan_value_edges_same_tokens(void **state)
{
    (void)state;
    static const char *const lead[5] = {"", " ", "\t", "  \r\n ",
                                        "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"};
    static const char *const trail[5] = {"", " ", "\r\n", " \t \n",
                                         "\n \r \n \r \n \r \n \r \n \r"};
    static const char *const next[4] = {"-FL F300 ", "-", "- X", "-PT-PTID A"};
    /* hot keywords of 1 to 8 bytes, a text one (never hot), unknown ones,
     * one past the hot table's 8 bytes */
    static const char *const kws[9] = {"PTID", "FL", "EETFIR", "ALTRNT1", "COORDATA",
                                       "MSGTXT", "Q", "ABCDEFG", "REGCAUSEX"};
    char buf[160];
    for (size_t i = 0; i < 9 * 5 * 41 * 5 * 4; i++) {
        size_t w = i % 9, l = i / 9 % 5, v = i / 45 % 41, t = i / 1845 % 5, x = i / 9225;
        int len = snprintf(buf, sizeof buf, "-%s%s", kws[w], lead[l]);
        for (size_t k = 0; k < v; k++)     /* inner separators too */
            buf[len++] = k % 5 == 4 ? ' ' : k % 7 == 6 ? '\r' : (char)('A' + k % 26);
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s", trail[t], next[x]);
        same_tokens_truncated(buf, (size_t)len);
    }
}

/* Values longer than the 32-byte window (scan_long_value): lengths around
 * each 32-byte step up to 200 bytes, separators before and after them and
 * around the step, the next '-' glued or spaced or missing; each input cut
 * at every length. */
static void test_lexer_scan_long_values_same_tokens(void **state)
{
    (void)state;
    static const char *const lead[3] = {" ", "\n", "                                  "};
    static const char *const trail[3] = {"", " ", "\r\n                                  \n"};
    static const char *const next[3] = {"-FL F300 ", "- ETO 1", ""};
    char buf[320];
    for (size_t v = 20; v <= 200; v++) {
        for (size_t i = 0; i < 3 * 3 * 3; i++) {
            int len = snprintf(buf, sizeof buf, "-ROUTE%s", lead[i % 3]);
            for (size_t k = 0; k < v; k++)   /* separators on some 32-byte edges */
                buf[len++] = k % 32 == 31 || k % 32 == 0 ? ' ' : k % 11 == 10 ? '\n'
                                                                 : (char)('A' + k % 26);
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s", trail[i / 3 % 3],
                            next[i / 9]);
            if (v % 8 == 0)
                same_tokens_truncated(buf, (size_t)len);
            else
                same_tokens(buf, (size_t)len);
        }
    }
}

/* Bracketed text (match_paren's 32-byte search): nested and unclosed
 * brackets, '-' followed by 'T', by a separator or by neither, and a
 * -TITLE inside, each at every offset around the 32-byte steps. */
static void test_lexer_scan_text_brackets_same_tokens(void **state)
{
    (void)state;
    static const char *const piece[6] = {"(", ")", "-TX", "- 1", "-TITLE ACK ", "-X"};
    char buf[256];
    for (size_t pos = 0; pos < 80; pos++) {
        for (size_t w = 0; w < 6 * 4; w++) {
            int len = snprintf(buf, sizeof buf, "-TITLE IFPL -MSGTXT (ABC");
            for (size_t k = 0; k < pos; k++)
                buf[len++] = k % 9 == 8 ? ' ' : (char)('A' + k % 26);
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s", piece[w % 6]);
            for (size_t k = 0; k < 40; k++)
                buf[len++] = (char)('a' + k % 26);
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s -ARCID X",
                            w / 6 == 0 ? ")" : w / 6 == 1 ? "))" : w / 6 == 2 ? "" : "(");
            same_tokens(buf, (size_t)len);
        }
    }
}

/* NUL bytes inside and after keywords: the packed hot keywords are padded
 * with 0, so "PT\0" must not be taken for PT. */
static void test_lexer_scan_nul_same_tokens(void **state)
{
    (void)state;
    static const char src[] = "-TITLE IFPL -PT\0 X -FL\0\0 F300 -ETO\0-PTID\0A -PT -PTID B "
                              "-FL F1 -COORDATA\0 X -ETO 1\0 -SFL 2 \0-TO 3 -P\0TID Y -EETFIR\0";
    same_tokens_truncated(src, sizeof src - 1);
}

int main(int argc, char **argv)
{
    testdata = argc > 1 ? argv[1] : getenv("ADEXP_TESTDATA");
    if (!testdata)
        testdata = "testdata";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lexer_scan_testdata_same_tokens),
        cmocka_unit_test(test_lexer_scan_generated_corpus_same_tokens),
        cmocka_unit_test(test_lexer_scan_random_same_tokens),
        cmocka_unit_test(test_lexer_scan_value_edges_same_tokens),
        cmocka_unit_test(test_lexer_scan_long_values_same_tokens),
        cmocka_unit_test(test_lexer_scan_text_brackets_same_tokens),
        cmocka_unit_test(test_lexer_scan_nul_same_tokens),
    };
    return cmocka_run_group_tests_name("lexer_scan", tests, NULL, NULL);
}
